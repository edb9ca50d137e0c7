import type { ConfigIssue } from "./issues.ts";
import { formatIssues } from "./issues.ts";

/**
 * - `config.not_found`: an explicitly given config file does not exist.
 * - `config.read`: the file exists but cannot be read (directory, permissions).
 * - `config.parse`: the file is not valid JSON (`data.line`/`data.column` say where).
 * - `config.invalid`: the JSON does not describe a valid config (`data.issues`).
 */
export type ConfigErrorCode = "config.not_found" | "config.read" | "config.parse" | "config.invalid";

export interface ConfigErrorData {
  /** Absolute path of the config file, absent for in-memory configs. */
  file?: string;
  /** Every problem found; never empty. */
  issues: ConfigIssue[];
  /** 1-based position of a JSON syntax error (`config.parse` only). */
  line?: number;
  column?: number;
}

/** The one error the config domain throws: the gateway never starts half-configured. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  readonly code: ConfigErrorCode;
  readonly data: ConfigErrorData;

  constructor(code: ConfigErrorCode, data: ConfigErrorData, options?: { cause?: unknown }) {
    super(describe(code, data), options);
    this.code = code;
    this.data = data;
  }
}

function describe(code: ConfigErrorCode, data: ConfigErrorData): string {
  const file = data.file ?? "(in-memory)";
  const head =
    code === "config.not_found"
      ? `Config file not found: ${file}`
      : code === "config.read"
        ? `Cannot read config file ${file}`
        : code === "config.parse"
          ? `Invalid JSON in config file ${file}`
          : data.file === undefined
            ? "Invalid config"
            : `Invalid config in ${data.file}`;
  const [only, ...rest] = data.issues;
  if (only === undefined || code === "config.not_found") return head;
  // A problem with the file itself reads best on one line.
  if (rest.length === 0 && only.path === "") return `${head}: ${only.message}`;
  const body = formatIssues(data.issues)
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
  return `${head}:\n${body}`;
}
