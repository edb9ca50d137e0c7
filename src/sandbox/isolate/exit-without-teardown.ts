import { inspect } from "node:util";

/**
 * isolated-vm's cleanup hook on the Node environment can abort the process
 * (`IsolateEnvironment::GetCurrent(): Assertion 'environment != nullptr'`):
 * a garbage collection during the environment's teardown runs the weak
 * callback of a handle the program dropped after the hook removed the
 * environment that callback needs. A process ended by process.exit() skips
 * that teardown; one whose event loop runs dry goes through it. Once an
 * isolate exists, a natural end becomes process.exit() with the same code,
 * after the other 'exit' listeners ran.
 *
 * Node emits 'exit' for an uncaught error before it prints the error, so the
 * error is printed here first: otherwise a crash would end the process silently.
 */
let installed = false;

export function exitWithoutIsolateTeardown(): void {
  if (installed) return;
  installed = true;
  let fatal: { error: unknown } | undefined;
  // The monitor sees every uncaught error, also those an 'uncaughtException' listener then handles.
  process.on("uncaughtExceptionMonitor", (error) => {
    if (process.listenerCount("uncaughtException") === 0) fatal = { error };
  });
  const onExit = (code: number): void => {
    // Listeners added after this one would run next; they still do, before the exit.
    const listeners = process.listeners("exit");
    for (const listener of listeners.slice(listeners.indexOf(onExit) + 1)) listener.call(process, code);
    if (fatal !== undefined && code !== 0) process.stderr.write(`${inspect(fatal.error)}\n`);
    process.exit(code);
  };
  process.on("exit", onExit);
}
