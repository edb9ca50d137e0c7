/** Where the gateway reports what happens. Library code never writes to stdout. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** One audit record as a JSON line; absent = audit records are only stored. */
  audit?(line: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** Writes to stderr, the one stream that is free in stdio mode. */
export function stderrLogger(prefix = "toolscript"): Logger {
  const write = (level: string, message: string) => process.stderr.write(`[${prefix}] ${level}${message}\n`);
  return {
    info: (message) => write("", message),
    warn: (message) => write("warning: ", message),
    error: (message) => write("error: ", message),
    audit: (line) => process.stderr.write(`${line}\n`),
  };
}
