import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { DEFAULT_CONFIG_FILE } from "./defaults.ts";
import { ConfigError } from "./errors.ts";
import type { Env } from "./interpolate.ts";
import { parseJson } from "./json.ts";
import { parseConfig } from "./parse.ts";
import type { Config } from "./schema.ts";

export interface LoadConfigOptions {
  /** Explicit config file (`--config`), relative to `cwd`. Missing → `config.not_found`. */
  path?: string;
  /** Where `toolscript.config.json` is looked up and `path` resolves from. */
  cwd: string;
  /** Variables for `${VAR}` references; the CLI passes `process.env`. */
  env: Env;
}

/**
 * Reads, parses and validates the config. Without `path`, a missing
 * `toolscript.config.json` in `cwd` gives the defaults (no servers, `source: "defaults"`).
 * Throws one `ConfigError` listing every problem otherwise.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<Config> {
  const cwd = resolve(options.cwd);
  const explicit = options.path !== undefined;
  const file = explicit ? resolve(cwd, options.path ?? "") : join(cwd, DEFAULT_CONFIG_FILE);

  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    const code = errorCode(cause);
    if (code === "ENOENT" && !explicit) {
      return parseConfig({}, { baseDir: cwd, env: options.env }, { source: "defaults" });
    }
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new ConfigError(
        "config.not_found",
        { file, issues: [{ path: "", message: "file not found" }] },
        { cause },
      );
    }
    const message =
      code === "EISDIR" ? "is a directory, not a file" : `cannot be read (${code ?? String(cause)})`;
    throw new ConfigError("config.read", { file, issues: [{ path: "", message }] }, { cause });
  }

  const parsed = parseJson(text);
  if (!parsed.ok) {
    const { line, column } = parsed;
    const message = `line ${line}, column ${column}: ${parsed.message}`;
    throw new ConfigError(
      "config.parse",
      { file, issues: [{ path: "", message }], line, column },
      {
        cause: parsed.cause,
      },
    );
  }
  return parseConfig(parsed.value, { baseDir: dirname(file), env: options.env }, { source: "file", file });
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
