import { catastrophicIsolates } from "../sandbox/isolate/catastrophes.ts";

/**
 * Ends the process with `code`. An isolate V8 gave up on (a fatal out of
 * memory, isolated-vm#527) keeps its thread asleep forever, and a normal exit
 * waits for that thread: then the process ends itself with SIGKILL instead.
 * Output written before this is not lost: stdout and stderr on pipes and files
 * are written synchronously on Linux.
 */
export function exitProcess(code: number): void {
  if (catastrophicIsolates() > 0) process.kill(process.pid, "SIGKILL");
  process.exit(code);
}
