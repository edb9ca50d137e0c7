/**
 * The error classes of the sandbox. Host errors (tool, policy, validation,
 * workspace, limit and busy failures) arrive as data and are rebuilt as these
 * classes inside, so `instanceof ToolError` works in agent code.
 */

export interface SandboxErrorOptions {
  code?: unknown;
  data?: unknown;
  cause?: unknown;
}

/** Names of the error classes, in the order they are installed. */
export const SANDBOX_ERROR_NAMES = [
  "ToolError",
  "PolicyError",
  "ValidationError",
  "WorkspaceError",
  "LimitError",
  "BusyError",
] as const;

export type SandboxErrorName = (typeof SANDBOX_ERROR_NAMES)[number];

export type SandboxErrorClass = new (
  message?: string,
  options?: SandboxErrorOptions,
) => Error & { code?: unknown; data?: unknown };

function makeErrorClass(name: string): SandboxErrorClass {
  const ErrorType = class extends Error {
    code?: unknown;
    data?: unknown;
    constructor(message?: string, options?: SandboxErrorOptions) {
      super(
        message,
        options !== undefined && options !== null && "cause" in options
          ? { cause: options.cause }
          : undefined,
      );
      if (options !== undefined && options !== null) {
        this.code = options.code;
        this.data = options.data;
      }
    }
  };
  Object.defineProperty(ErrorType, "name", { value: name });
  Object.defineProperty(ErrorType.prototype, "name", { value: name, writable: true, configurable: true });
  return ErrorType;
}

/** One fresh class per name (each sandbox has its own). */
export function makeSandboxErrors(): Record<SandboxErrorName, SandboxErrorClass> {
  const errors = Object.create(null) as Record<SandboxErrorName, SandboxErrorClass>;
  for (const name of SANDBOX_ERROR_NAMES) errors[name] = makeErrorClass(name);
  return errors;
}
