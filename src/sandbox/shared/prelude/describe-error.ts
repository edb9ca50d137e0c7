/** What the host learns of a thrown value: small strings only, cut here (cut.ts) before they are copied out. */
import type { SandboxErrorClass } from "../globals/errors.ts";
import { MAX_REPORT_CHARS } from "./constants.ts";
import { capReport } from "./cut.ts";
import { inspect } from "./inspect.ts";
import { ErrorClass, StringOf, stringify } from "./intrinsics.ts";

export interface ErrorReport {
  kind: "tool" | "policy" | "runtime";
  name: string;
  message: string;
  stack?: string | undefined;
  code?: string | undefined;
  dataJson?: string | undefined;
}

/** The classes whose errors are reported as kind `tool` and `policy`. */
export interface ReportedKinds {
  ToolError: SandboxErrorClass;
  PolicyError: SandboxErrorClass;
}

export function describeError(error: unknown, kinds: ReportedKinds): ErrorReport {
  try {
    if (error instanceof ErrorClass) {
      const withData = error as Error & { code?: unknown; data?: unknown };
      let dataJson: string | undefined;
      try {
        dataJson = withData.data === undefined ? undefined : stringify(withData.data);
      } catch {
        dataJson = undefined;
      }
      const name = StringOf(error.name);
      const message = StringOf(error.message);
      // The stack is formatted when first read, from the message as it is then: cut first, it never holds the whole.
      if (message.length > MAX_REPORT_CHARS) {
        try {
          error.message = capReport(message);
        } catch {
          // A frozen error keeps its message; its stack is cut below instead.
        }
      }
      const stack = typeof error.stack === "string" ? error.stack : undefined;
      return {
        kind:
          error instanceof kinds.ToolError
            ? "tool"
            : error instanceof kinds.PolicyError
              ? "policy"
              : "runtime",
        name: capReport(name),
        message: capReport(message),
        stack: stack === undefined ? undefined : capReport(stack),
        code: withData.code === undefined ? undefined : capReport(StringOf(withData.code)),
        // Cut JSON would not parse: data too large to report is left out.
        dataJson: typeof dataJson === "string" && dataJson.length <= MAX_REPORT_CHARS ? dataJson : undefined,
      };
    }
    return { kind: "runtime", name: "Error", message: "Uncaught " + capReport(inspect(error)) };
  } catch {
    return { kind: "runtime", name: "Error", message: "Uncaught error that could not be described" };
  }
}
