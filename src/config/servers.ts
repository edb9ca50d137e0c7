import { resolve } from "node:path";
import { z } from "zod";
import type { ResolveContext } from "./context.ts";
import { MAX_TIMEOUT_SECONDS } from "./defaults.ts";
import { interpolate, interpolationMessages } from "./interpolate.ts";
import type { PathSegment } from "./issues.ts";

/** How a remote server is reached: `auto` tries Streamable HTTP, then falls back to legacy SSE. */
export type HttpTransport = "auto" | "streamable-http" | "sse";

/** A server started as a child process speaking MCP over stdio. */
export interface StdioServerConfig {
  kind: "stdio";
  /** The `mcpServers` key, untouched. */
  name: string;
  command: string;
  args: string[];
  /** Extra variables for the child, on top of whatever base environment the upstream layer gives it. */
  env: Record<string, string>;
  /** Absolute working directory for the child, when configured. */
  cwd?: string;
  /** Kept in the config so tools can show it, but never connected. */
  disabled: boolean;
  /** Per-call timeout for this server, overriding `upstream.callTimeoutMs`. */
  timeoutMs?: number;
  /** Which protocol era to speak: "auto" (default) probes for 2026-07-28, "legacy" speaks 2025. */
  era?: ServerEra;
}

/** A remote server reached over Streamable HTTP or legacy SSE. */
export interface HttpServerConfig {
  kind: "http";
  name: string;
  /** Normalized http(s) URL (`URL.href`); raw text for disabled servers with unresolved `${VAR}`. */
  url: string;
  headers: Record<string, string>;
  transport: HttpTransport;
  disabled: boolean;
  timeoutMs?: number;
  era?: ServerEra;
  /** OAuth client settings; without them the server may still ask for OAuth, then the client registers itself. */
  oauth?: OAuthSettings;
}

/** A server entry's `oauth` key (the names Claude Code's config uses where they exist). */
export interface OAuthSettings {
  /** A client registered with the authorization server beforehand. */
  clientId?: string;
  clientSecret?: string;
  /** An https URL of a Client ID Metadata Document, used as the client id where the server supports it. */
  clientMetadataUrl?: string;
  /** Scopes to ask for, space-separated; default: what the server's challenge or metadata says. */
  scopes?: string;
  /** Loopback port of the redirect URI; default: one chosen on first login and kept. */
  callbackPort?: number;
}

export type ServerConfig = StdioServerConfig | HttpServerConfig;

/** A server config before its `mcpServers` key is attached. */
export type UnnamedServerConfig = Omit<StdioServerConfig, "name"> | Omit<HttpServerConfig, "name">;

/**
 * "auto": probe for protocol 2026-07-28 and fall back to a 2025 revision; "legacy": always the
 * 2025 `initialize` handshake (for a server whose 2026-07-28 side offers less, or misbehaves on the probe).
 */
export const SERVER_ERAS = ["auto", "legacy"] as const;
export type ServerEra = (typeof SERVER_ERAS)[number];

export const SERVER_TYPES = ["stdio", "http", "sse", "streamable-http"] as const;

/**
 * One `mcpServers` entry as Claude Desktop, Claude Code (`.mcp.json`), Cursor, Cline and
 * Roo Code write it. Strict: any other key is most likely a typo.
 */
export const serverEntrySchema = z.strictObject({
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
  url: z.string().min(1).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  type: z.enum(SERVER_TYPES).optional(),
  disabled: z.boolean().optional(),
  // Client-side approval lists (Cline, Roo Code); accepted, not used by the gateway.
  autoApprove: z.array(z.string()).optional(),
  alwaysAllow: z.array(z.string()).optional(),
  /** Seconds (Cline, Roo Code) up to MAX_TIMEOUT_SECONDS, milliseconds above (Gemini CLI). */
  timeout: z.number().positive().optional(),
  /** Unambiguous ToolScript spelling, in milliseconds. */
  timeoutMs: z.int().positive().optional(),
  /** ToolScript: the protocol era to speak with this server (see SERVER_ERAS). */
  era: z.enum(SERVER_ERAS).optional(),
  oauth: z
    .strictObject({
      clientId: z.string().min(1).optional(),
      clientSecret: z.string().min(1).optional(),
      clientMetadataUrl: z.string().min(1).optional(),
      scopes: z.union([z.string(), z.array(z.string().min(1))]).optional(),
      callbackPort: z.int().min(1).max(65535).optional(),
    })
    .optional(),
});

export type ServerEntry = z.output<typeof serverEntrySchema>;

/** Reports a problem at a path relative to the entry (`[]` is the entry itself). */
export type ReportIssue = (path: PathSegment[], message: string) => void;

const STDIO_ONLY = ["args", "env", "cwd"] as const;

/**
 * Turns a structurally valid entry into a server config: picks stdio or http, expands
 * `${VAR}`, resolves `cwd`. Returns undefined when the entry cannot be a server at all.
 * Disabled servers are not checked for unset variables: disabling a server whose
 * secret is missing is how a user sets it aside.
 */
export function resolveServerEntry(
  entry: ServerEntry,
  ctx: ResolveContext,
  report: ReportIssue,
): UnnamedServerConfig | undefined {
  const disabled = entry.disabled ?? false;
  const expand = (text: string, path: PathSegment[]): string => {
    const result = interpolate(text, ctx.env);
    if (!disabled) for (const message of interpolationMessages(result)) report(path, message);
    return result.value;
  };
  const expandRecord = (record: Record<string, string> | undefined, key: string): Record<string, string> =>
    Object.fromEntries(Object.entries(record ?? {}).map(([k, v]) => [k, expand(v, [key, k])]));

  const timeoutMs = resolveTimeout(entry, report);
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand && hasUrl) {
    report([], 'must have either "command" (stdio server) or "url" (remote server), not both');
    return undefined;
  }

  if (entry.command !== undefined) {
    if (entry.type !== undefined && entry.type !== "stdio") {
      report(["type"], `type "${entry.type}" is for remote servers, which need "url" instead of "command"`);
    }
    if (entry.headers !== undefined) report(["headers"], 'only applies to remote servers (with "url")');
    if (entry.oauth !== undefined) report(["oauth"], 'only applies to remote servers (with "url")');
    const cwd = entry.cwd === undefined ? undefined : resolve(ctx.baseDir, expand(entry.cwd, ["cwd"]));
    return {
      kind: "stdio",
      command: expand(entry.command, ["command"]),
      args: (entry.args ?? []).map((arg, index) => expand(arg, ["args", index])),
      env: expandRecord(entry.env, "env"),
      ...(cwd === undefined ? {} : { cwd }),
      disabled,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(entry.era === undefined ? {} : { era: entry.era }),
    };
  }

  if (entry.url !== undefined) {
    if (entry.type === "stdio") report(["type"], 'type "stdio" needs "command" instead of "url"');
    for (const key of STDIO_ONLY) {
      if (entry[key] !== undefined) report([key], 'only applies to stdio servers (with "command")');
    }
    const rawUrl = expand(entry.url, ["url"]);
    // An unresolved reference was reported already (or the server is disabled): keep the text.
    const url = interpolate(entry.url, ctx.env).ok ? checkUrl(rawUrl, report) : rawUrl;
    const headers = expandRecord(entry.headers, "headers");
    const oauth = entry.oauth && resolveOAuth(entry.oauth, expand, report);
    if (url === undefined) return undefined;
    return {
      kind: "http",
      url,
      headers,
      transport: entry.type === "sse" ? "sse" : entry.type === undefined ? "auto" : "streamable-http",
      disabled,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(entry.era === undefined ? {} : { era: entry.era }),
      ...(oauth && { oauth }),
    };
  }

  report([], 'must have "command" (stdio server) or "url" (remote server)');
  return undefined;
}

function resolveOAuth(
  raw: NonNullable<ServerEntry["oauth"]>,
  expand: (text: string, path: PathSegment[]) => string,
  report: ReportIssue,
): OAuthSettings {
  const oauth: OAuthSettings = {};
  if (raw.clientId !== undefined) oauth.clientId = expand(raw.clientId, ["oauth", "clientId"]);
  if (raw.clientSecret !== undefined)
    oauth.clientSecret = expand(raw.clientSecret, ["oauth", "clientSecret"]);
  if (raw.clientSecret !== undefined && raw.clientId === undefined) {
    report(["oauth", "clientSecret"], 'needs "clientId": a secret belongs to a pre-registered client');
  }
  if (raw.clientMetadataUrl !== undefined) {
    const text = expand(raw.clientMetadataUrl, ["oauth", "clientMetadataUrl"]);
    let url: URL | undefined;
    try {
      url = new URL(text);
    } catch {}
    // The spec's rule for Client ID Metadata Documents: https, with a path.
    if (url?.protocol !== "https:" || url.pathname === "/") {
      report(
        ["oauth", "clientMetadataUrl"],
        "must be an https URL with a path (a Client ID Metadata Document)",
      );
    } else oauth.clientMetadataUrl = url.href;
  }
  if (raw.scopes !== undefined) {
    const scopes = Array.isArray(raw.scopes)
      ? raw.scopes.map((scope, index) => expand(scope, ["oauth", "scopes", index]))
      : expand(raw.scopes, ["oauth", "scopes"]).split(/\s+/);
    const joined = scopes.filter((scope) => scope.length > 0).join(" ");
    if (joined) oauth.scopes = joined;
  }
  if (raw.callbackPort !== undefined) oauth.callbackPort = raw.callbackPort;
  return oauth;
}

/** Normalized href, or undefined after reporting. Never echoes the URL: it may hold a secret. */
function checkUrl(text: string, report: ReportIssue): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    report(["url"], "invalid URL");
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    report(["url"], `must be an http or https URL, not ${url.protocol.slice(0, -1)}`);
    return undefined;
  }
  return url.href;
}

function resolveTimeout(entry: ServerEntry, report: ReportIssue): number | undefined {
  if (entry.timeoutMs !== undefined && entry.timeout !== undefined) {
    report(["timeout"], 'use either "timeout" or "timeoutMs", not both');
  }
  if (entry.timeoutMs !== undefined) return entry.timeoutMs;
  if (entry.timeout === undefined) return undefined;
  return Math.round(entry.timeout <= MAX_TIMEOUT_SECONDS ? entry.timeout * 1000 : entry.timeout);
}
