/** The sandbox's `console`: each call is formatted here and sent to the host as one string. */
import { cutToBytes } from "./cut.ts";
import { inspect } from "./inspect.ts";
import { define, freeze } from "./intrinsics.ts";
import { run } from "./run-state.ts";

const LEVELS = ["log", "info", "warn", "error", "debug"];

export function installConsole(): void {
  const consoleObject: Record<string, (...args: unknown[]) => void> = {};
  for (const level of LEVELS) {
    consoleObject[level] = (...args: unknown[]) => {
      if (run.log === undefined || run.logCharsLeft < 0) return;
      let message = "";
      for (let index = 0; index < args.length; index += 1)
        message += (index === 0 ? "" : " ") + inspect(args[index]);
      // Only what fits in the log budget leaves the sandbox: a 100 MB string is cut here, not copied out.
      const room = run.logCharsLeft - 1;
      run.logCharsLeft -= message.length + 1;
      run.log(level, message.length * 3 <= room ? message : cutToBytes(message, room));
    };
  }
  define("console", freeze(consoleObject));
}
