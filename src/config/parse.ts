import { resolve } from "node:path";
import { ConfigError } from "./errors.ts";
import type { Env } from "./interpolate.ts";
import type { ConfigIssue } from "./issues.ts";
import { formatPath } from "./issues.ts";
import { unknownPassThroughServers } from "./pass-through.ts";
import type { Config, ConfigSource } from "./schema.ts";
import { CONFIG_KEYS, createConfigSchema } from "./schema.ts";
import { suggestKey } from "./suggest.ts";
import { ZodIssueCollector } from "./zod-issues.ts";

export interface ParseConfigOptions {
  /** Directory relative paths resolve against (a config file's directory). */
  baseDir: string;
  /** Variables for `${VAR}` references. Pass `process.env` explicitly if that is what you want. */
  env: Env;
}

export type ConfigValidation = { ok: true; config: Config } | { ok: false; issues: ConfigIssue[] };

/** Where the JSON came from, for the resulting `Config` and error messages. */
export interface ConfigOrigin {
  source: ConfigSource;
  file?: string;
}

const INLINE: ConfigOrigin = { source: "inline" };

/** Validates and resolves a config value, returning every problem instead of throwing. */
export function validateConfig(
  json: unknown,
  options: ParseConfigOptions,
  origin: ConfigOrigin = INLINE,
): ConfigValidation {
  const baseDir = resolve(options.baseDir);
  const schema = createConfigSchema({ baseDir, env: options.env });
  const collector = new ZodIssueCollector();
  const parsed = schema.safeParse(json, { error: collector.errorMap });
  const issues = [
    ...topLevelTypos(json),
    ...reservedServerNames(json),
    ...unknownPassThroughServers(json),
    ...(parsed.success ? [] : collector.toConfigIssues(parsed.error.issues)),
  ];
  if (!parsed.success || issues.length > 0) return { ok: false, issues };
  const config: Config = {
    source: origin.source,
    ...(origin.file === undefined ? {} : { file: origin.file }),
    baseDir,
    servers: parsed.data.mcpServers,
    settings: parsed.data.toolscript,
  };
  return { ok: true, config };
}

/** Validates and resolves a config value (e.g. an object a library user built); throws `ConfigError`. */
export function parseConfig(
  json: unknown,
  options: ParseConfigOptions,
  origin: ConfigOrigin = INLINE,
): Config {
  const result = validateConfig(json, options, origin);
  if (!result.ok) {
    throw new ConfigError("config.invalid", {
      ...(origin.file === undefined ? {} : { file: origin.file }),
      issues: result.issues,
    });
  }
  return result.config;
}

/**
 * Unknown top-level keys are allowed (client files hold `$schema`, `globalShortcut`, ...),
 * except near-misses of ours (`mcpservers`, `toolScript`), which would silently drop settings.
 */
function topLevelTypos(json: unknown): ConfigIssue[] {
  if (!isRecord(json)) return [];
  const known: readonly string[] = CONFIG_KEYS;
  return Object.keys(json)
    .filter((key) => !known.includes(key))
    .flatMap((key) => {
      const suggestion = suggestKey(key, known);
      return suggestion === undefined
        ? []
        : [{ path: formatPath([key]), message: `unknown key, did you mean "${suggestion}"?` }];
    });
}

/** zod drops a `__proto__` key silently; a server must never vanish without a word. */
function reservedServerNames(json: unknown): ConfigIssue[] {
  const servers = isRecord(json) ? json.mcpServers : undefined;
  if (!isRecord(servers) || !Object.hasOwn(servers, "__proto__")) return [];
  return [{ path: formatPath(["mcpServers", "__proto__"]), message: "server name __proto__ is not allowed" }];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
