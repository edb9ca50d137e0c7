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
  /** Where the discovered files (see DISCOVERED_CONFIG_FILES) are looked up and `path` resolves from. */
  cwd: string;
  /** Variables for `${VAR}` references; the CLI passes `process.env`. */
  env: Env;
}

/**
 * The files looked up in the working folder when no `--config` is given, first
 * found wins: Claude Code's project file, so a project that already lists its
 * servers works as is, then ToolScript's own.
 */
export const DISCOVERED_CONFIG_FILES: readonly string[] = [".mcp.json", DEFAULT_CONFIG_FILE];

/**
 * Reads, parses and validates the config. Without `path`, the first of
 * DISCOVERED_CONFIG_FILES present in `cwd` is read; none gives the defaults
 * (no servers, `source: "defaults"`). `file` tells the caller which one was used.
 * Throws one `ConfigError` listing every problem otherwise.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<Config> {
  const cwd = resolve(options.cwd);
  if (options.path !== undefined) return loadFile(resolve(cwd, options.path), options.env);
  for (const name of DISCOVERED_CONFIG_FILES) {
    const config = await loadFile(join(cwd, name), options.env, { optional: true });
    if (config) return config;
  }
  return parseConfig({}, { baseDir: cwd, env: options.env }, { source: "defaults" });
}

async function loadFile(file: string, env: Env): Promise<Config>;
async function loadFile(file: string, env: Env, options: { optional: true }): Promise<Config | undefined>;
async function loadFile(file: string, env: Env, options?: { optional: true }): Promise<Config | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    const code = errorCode(cause);
    if (code === "ENOENT" && options?.optional) return undefined;
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
  return parseConfig(parsed.value, { baseDir: dirname(file), env }, { source: "file", file });
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
