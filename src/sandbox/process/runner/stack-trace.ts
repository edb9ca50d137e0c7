/**
 * Stacks in V8's format, with agent frames named like the isolate tier's and
 * every other script's frames (Deno's own, the runner's) left out.
 */
import type { CallSite } from "./deno.ts";

export interface StackNames {
  agent: string;
  prelude: string;
  skillPrefix: string;
}

function frameText(frame: CallSite): string {
  if (frame.isPromiseAll()) return "async Promise.all (index " + frame.getPromiseIndex() + ")";
  const file = frame.getScriptNameOrSourceURL();
  const location = file ? file + ":" + frame.getLineNumber() + ":" + frame.getColumnNumber() : "<anonymous>";
  let name = frame.getFunctionName();
  // V8 names the agent's anonymous function after the eval that created it.
  if (name === "eval" && frame.isEval()) name = null;
  const type = frame.isToplevel() ? null : frame.getTypeName();
  if (name && type && !frame.isConstructor()) name = type + "." + name;
  if (name && frame.isConstructor()) name = "new " + name;
  return (frame.isAsync() ? "async " : "") + (name ? name + " (" + location + ")" : location);
}

/** Installs the formatter; `StringOf` is the captured `String` (agent code may replace the global). */
export function installStackFormat(names: StackNames, StringOf: (value: unknown) => string): void {
  (Error as unknown as { prepareStackTrace: unknown }).prepareStackTrace = (
    error: { name?: unknown; message?: unknown },
    frames: CallSite[],
  ) => {
    let text: string;
    try {
      const name = StringOf(error.name);
      const message = StringOf(error.message);
      text = message === "" ? name : name + ": " + message;
    } catch {
      text = "Error";
    }
    for (const frame of frames) {
      const file = frame.getScriptNameOrSourceURL();
      if (file && file !== names.agent && file !== names.prelude && !file.startsWith(names.skillPrefix))
        continue;
      text += "\n    at " + frameText(frame);
    }
    return text;
  };
}
