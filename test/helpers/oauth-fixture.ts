import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { REPO_ROOT } from "./servers.ts";

export const OAUTH_SERVER_TS = join(REPO_ROOT, "test/fixtures/oauth-server.ts");
/** The test "browser": `node browser-follow.mjs <url>` follows the redirects to the loopback callback. */
export const BROWSER_FOLLOW_MJS = join(REPO_ROOT, "test/fixtures/browser-follow.mjs");

export interface OAuthFixtureOptions {
  /** Access-token lifetime in seconds (default 3600). */
  tokenTtlS?: number;
  /** scopes_supported (default ["mcp:tools"]). */
  scopes?: string[];
  /** Scopes the MCP endpoint requires (named in the 401's WWW-Authenticate; 403 without them). */
  requiredScopes?: string[];
  /** false: tokens need not be bound to the MCP URL (RFC 8707). Default true. */
  strictResource?: boolean;
  /** false: a refresh keeps the refresh token. Default true (a new one each refresh). */
  rotateRefresh?: boolean;
  /** false: /authorize without the cookie "login" hop. Default true. */
  loginHop?: boolean;
  /** false: no dynamic client registration. Default true. */
  dcr?: boolean;
  /** A pre-registered client (loopback redirect URIs match any port). */
  client?: { client_id: string; client_secret?: string; redirect_uris: string[] };
  /** Fixed ports (default: the OS picks); fixed ones keep the URLs across a fixture restart. */
  mcpPort?: number;
  authPort?: number;
}

/** GET /stats of the fixture. */
export interface OAuthFixtureStats {
  registrations: number;
  logins: number;
  authorizations: number;
  codeExchanges: number;
  refreshes: number;
  refreshFailures: number;
  unauthorized: number;
  mcpRequests: number;
  revocations: number;
  clients: string[];
  lastAuthorization?: { clientId: string; scopes: string[]; resource?: string; redirectUri: string };
  lastRefresh?: { clientId: string; scopes: string[]; resource?: string };
  tokenTtlS: number;
}

export interface OAuthFixture {
  /** The protected MCP endpoint, http://127.0.0.1:<port>/mcp. */
  mcpUrl: string;
  /** The authorization server's issuer, http://127.0.0.1:<port>/. */
  authUrl: string;
  pid: number;
  child: ChildProcess;
  stats(): Promise<OAuthFixtureStats>;
  /** Invalidates every access token (refresh tokens keep working): the next MCP request gets 401. */
  revokeAccessTokens(): Promise<number>;
  /** Ends the fixture's process group (SIGTERM, SIGKILL after 3 s). */
  stop(): Promise<void>;
}

const START_LIMIT_MS = 20_000;

function fixtureEnv(options: OAuthFixtureOptions): Record<string, string> {
  const env: Record<string, string> = {};
  if (options.tokenTtlS !== undefined) env.OAUTH_FIXTURE_TOKEN_TTL_S = String(options.tokenTtlS);
  if (options.scopes) env.OAUTH_FIXTURE_SCOPES = options.scopes.join(" ");
  if (options.requiredScopes) env.OAUTH_FIXTURE_REQUIRED_SCOPES = options.requiredScopes.join(" ");
  if (options.strictResource === false) env.OAUTH_FIXTURE_STRICT_RESOURCE = "0";
  if (options.rotateRefresh === false) env.OAUTH_FIXTURE_ROTATE_REFRESH = "0";
  if (options.loginHop === false) env.OAUTH_FIXTURE_LOGIN_HOP = "0";
  if (options.dcr === false) env.OAUTH_FIXTURE_DCR = "0";
  if (options.client) env.OAUTH_FIXTURE_CLIENT = JSON.stringify(options.client);
  if (options.mcpPort !== undefined) env.OAUTH_FIXTURE_MCP_PORT = String(options.mcpPort);
  if (options.authPort !== undefined) env.OAUTH_FIXTURE_AUTH_PORT = String(options.authPort);
  return env;
}

/**
 * Starts test/fixtures/oauth-server.ts (the SDK's demo authorization server with refresh tokens,
 * and an MCP server behind bearer auth) in its own process group, on loopback.
 */
export async function startOAuthFixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), OAUTH_SERVER_TS], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...fixtureEnv(options) },
    detached: true, // its own process group: stop() ends it and whatever it started, by its pid
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const exited = once(child, "exit");
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {}
    }, 3000);
    await exited;
    clearTimeout(timer);
  };
  let urls: { mcpUrl: string; authUrl: string };
  try {
    urls = await new Promise((ready, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`the OAuth fixture did not start in ${START_LIMIT_MS / 1000} s: ${stderr}`)),
        START_LIMIT_MS,
      );
      let seen = "";
      child.stdout?.setEncoding("utf8");
      child.stdout?.on("data", (chunk: string) => {
        seen += chunk;
        const line = seen.split("\n")[0];
        if (!seen.includes("\n") || line === undefined) return;
        clearTimeout(timer);
        try {
          ready(JSON.parse(line));
        } catch {
          fail(new Error(`the OAuth fixture printed ${line} instead of its URLs`));
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        fail(new Error(`the OAuth fixture exited with ${code}: ${stderr}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  const admin = (path: string, method = "GET") =>
    fetch(new URL(path, urls.authUrl), { method }).then(async (response) => {
      if (!response.ok) throw new Error(`${method} ${path} on the OAuth fixture: ${response.status}`);
      return response.json() as Promise<unknown>;
    });
  return {
    mcpUrl: urls.mcpUrl,
    authUrl: urls.authUrl,
    pid: child.pid as number,
    child,
    stats: () => admin("/stats") as Promise<OAuthFixtureStats>,
    revokeAccessTokens: async () =>
      ((await admin("/admin/revoke-access-tokens", "POST")) as { revoked: number }).revoked,
    stop,
  };
}
