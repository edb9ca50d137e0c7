import { z } from "zod";
import type { ConfigIssue } from "./issues.ts";
import { formatPath } from "./issues.ts";
import { closeMatches } from "./suggest.ts";

/**
 * Characters of an MCP tool name (spec 2025-11-25: 1-128 of `A-Z a-z 0-9 _ - .`).
 * A prefix is glued in front of upstream names, so it is held to the same alphabet.
 */
const TOOL_NAME_CHARS = /^[A-Za-z0-9_.-]*$/;
/** Leaves room for the upstream's own name inside the 128 characters a tool name may have. */
export const MAX_PASS_THROUGH_PREFIX_LENGTH = 64;

/** One passed-through server: its tools, prompts and resource templates appear as `<prefix><name>`. */
export interface PassThroughSetting {
  /** `""` keeps the upstream's names; the default is `<server>__`. */
  prefix: string;
}

export function defaultPassThroughPrefix(server: string): string {
  return `${server}__`;
}

function prefixProblem(prefix: string): string | undefined {
  if (prefix.length > MAX_PASS_THROUGH_PREFIX_LENGTH) {
    return `at most ${MAX_PASS_THROUGH_PREFIX_LENGTH} characters (a tool name has at most 128)`;
  }
  if (!TOOL_NAME_CHARS.test(prefix)) {
    return "may hold only letters, digits, '_', '-' and '.' (the characters of an MCP tool name)";
  }
  return undefined;
}

/**
 * `toolscript.passThrough`: `{ "<server>": { "prefix"?: string } }`, defaults filled.
 * Whether each name is a configured server is checked against `mcpServers` by
 * {@link unknownPassThroughServers}, which sees the whole document.
 */
export const passThroughSchema = z
  .record(
    z.string().min(1, { error: "server name must not be empty" }),
    z.strictObject({ prefix: z.string().optional() }),
  )
  .default({})
  .superRefine((entries, ctx) => {
    for (const [server, entry] of Object.entries(entries)) {
      const prefix = entry.prefix ?? defaultPassThroughPrefix(server);
      const problem = prefixProblem(prefix);
      if (problem === undefined) continue;
      ctx.addIssue({
        code: "custom",
        path: entry.prefix === undefined ? [server] : [server, "prefix"],
        message:
          entry.prefix === undefined
            ? `the default prefix "${prefix}" ${problem}; set "prefix" explicitly`
            : `"${prefix}" ${problem}`,
      });
    }
  })
  .transform(
    (entries): Record<string, PassThroughSetting> =>
      Object.fromEntries(
        Object.entries(entries).map(([server, entry]) => [
          server,
          { prefix: entry.prefix ?? defaultPassThroughPrefix(server) },
        ]),
      ),
  );

/**
 * Every `toolscript.passThrough` key must name a server of `mcpServers`: a typo would
 * otherwise expose nothing without a word. Read from the raw document so the check
 * runs even when other parts of the config are broken.
 */
export function unknownPassThroughServers(json: unknown): ConfigIssue[] {
  if (!isRecord(json) || !isRecord(json.toolscript)) return [];
  const passThrough = json.toolscript.passThrough;
  if (!isRecord(passThrough)) return [];
  const servers = isRecord(json.mcpServers) ? Object.keys(json.mcpServers) : [];
  return Object.keys(passThrough)
    .filter((name) => name !== "" && !servers.includes(name))
    .map((name) => {
      const close = closeMatches(name, servers, 3);
      const hint =
        close.length > 0
          ? `, did you mean ${close.map((candidate) => `"${candidate}"`).join(" or ")}?`
          : servers.length === 0
            ? " (mcpServers is empty)"
            : ` (servers: ${servers.slice(0, 10).join(", ")}${servers.length > 10 ? ", …" : ""})`;
      return {
        path: formatPath(["toolscript", "passThrough", name]),
        message: `unknown server "${name}": not in mcpServers${hint}`,
      };
    });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
