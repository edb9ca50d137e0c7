import { exitProcess } from "./exit.ts";

/**
 * Runs `work` with a signal the first Ctrl-C (SIGINT) aborts, so a command can
 * stop what is in flight and still print what it has; a second Ctrl-C quits at once.
 */
export async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) {
      exitProcess(130);
      return;
    }
    process.stderr.write("\ntoolscript: cancelling (Ctrl-C again to quit at once)\n");
    controller.abort();
  };
  process.on("SIGINT", onInterrupt);
  try {
    return await work(controller.signal);
  } finally {
    process.off("SIGINT", onInterrupt);
  }
}
