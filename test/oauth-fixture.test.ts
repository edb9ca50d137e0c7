// The OAuth test fixture (test/fixtures/oauth-server.ts, test/helpers/oauth-fixture.ts) and the
// test "browser" (test/fixtures/browser-follow.mjs) work with the SDK 2.x client alone, before any
// ToolScript code is involved: a 401 names the protected resource metadata, the authorization
// code flow with PKCE and dynamic registration goes through the browser script to a loopback
// callback, the token is bound to the MCP URL, and a 401 after revocation is answered by a refresh.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  Client,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { BROWSER_FOLLOW_MJS, type OAuthFixture, startOAuthFixture } from "./helpers/oauth-fixture.ts";
import { tempDir } from "./helpers/servers.ts";

/** Runs the browser script as ToolScript would (`$BROWSER <url>`); resolves its exit code and stderr. */
async function browse(url: string, logFile?: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BROWSER_FOLLOW_MJS, url], {
    env: { ...process.env, ...(logFile ? { TOOLSCRIPT_TEST_BROWSER_LOG: logFile } : {}) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr += chunk;
  });
  const [code] = await once(child, "exit");
  return { code, stderr };
}

/** A loopback redirect_uri that hands each callback's query to the test. */
async function startCallback(): Promise<{ url: string; next(): Promise<URLSearchParams>; server: Server }> {
  const waiting: ((params: URLSearchParams) => void)[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(url.searchParams.has("code") ? 200 : 400, { "content-type": "text/plain" });
    res.end(url.searchParams.has("code") ? "Signed in. You can close this tab." : "no code");
    waiting.shift()?.(url.searchParams);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    server,
  };
}

/** An in-memory OAuthClientProvider whose "browser" is browser-follow.mjs. */
class TestProvider implements OAuthClientProvider {
  info: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  private verifier = "";
  private discovery: OAuthDiscoveryState | undefined;
  browserExit: Promise<{ code: number | null; stderr: string }> | undefined;

  constructor(
    private readonly redirect: string,
    private readonly browserLog: string,
  ) {}

  get redirectUrl() {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "oauth-fixture self-test",
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  clientInformation() {
    return this.info;
  }

  saveClientInformation(info: StoredOAuthClientInformation) {
    this.info = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL) {
    // Like ToolScript, do not wait for the browser here: the callback is what matters.
    this.browserExit = browse(url.href, this.browserLog);
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }

  discoveryState() {
    return this.discovery;
  }
}

function whoami(result: unknown): { clientId?: string; scopes: string[]; resource?: string } {
  const content = (result as { content: { type: string; text: string }[] }).content;
  return JSON.parse(content[0]?.text ?? "{}");
}

describe("OAuth fixture with the SDK 2.x client", { timeout: 60_000 }, () => {
  let fixture: OAuthFixture;
  let callback: Awaited<ReturnType<typeof startCallback>>;
  const dir = tempDir("oauth-fixture");
  const browserLog = join(dir.path, "browser.log");
  let provider: TestProvider;

  before(async () => {
    fixture = await startOAuthFixture({ scopes: ["mcp:tools", "mcp:extra"] });
    callback = await startCallback();
    provider = new TestProvider(callback.url, browserLog);
  });

  after(async () => {
    await fixture?.stop();
    callback?.server.close();
    dir.remove();
  });

  it("answers a request without a token with 401 and WWW-Authenticate naming the resource metadata", async () => {
    const response = await fetch(fixture.mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    assert.equal(response.status, 401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    assert.match(challenge, /^Bearer /);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    assert.equal(metadataUrl, new URL("/.well-known/oauth-protected-resource/mcp", fixture.mcpUrl).href);
    const metadata = (await (await fetch(metadataUrl as string)).json()) as Record<string, unknown>;
    assert.equal(metadata.resource, fixture.mcpUrl);
    assert.deepEqual(metadata.authorization_servers, [fixture.authUrl]);

    const wrong = await fetch(fixture.mcpUrl, {
      method: "POST",
      headers: { authorization: "Bearer not-a-token", "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(wrong.status, 401);
    assert.match(wrong.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
  });

  it("authorizes through browser-follow (login cookie, PKCE, resource) and whoami shows the token", async () => {
    const first = new Client({ name: "fixture-test", version: "1.0.0" });
    const received = callback.next();
    await assert.rejects(
      first.connect(new StreamableHTTPClientTransport(new URL(fixture.mcpUrl), { authProvider: provider })),
      (error: unknown) => error instanceof UnauthorizedError,
    );
    const params = await received;
    const browser = await provider.browserExit;
    assert.equal(browser?.code, 0, browser?.stderr);

    const visited = readFileSync(browserLog, "utf8").trim().split("\n");
    const authorize = new URL(visited[0] as string);
    assert.equal(`${authorize.origin}/`, fixture.authUrl);
    assert.equal(authorize.pathname, "/authorize");
    assert.equal(authorize.searchParams.get("code_challenge_method"), "S256");
    assert.ok(authorize.searchParams.get("code_challenge"));
    assert.equal(authorize.searchParams.get("resource"), fixture.mcpUrl);
    assert.equal(authorize.searchParams.get("redirect_uri"), callback.url);
    // /authorize -> /login (sets the cookie) -> /authorize (with it) -> the callback
    assert.deepEqual(
      visited.map((url) => new URL(url).pathname),
      ["/authorize", "/login", "/authorize", "/callback"],
    );

    const transport = new StreamableHTTPClientTransport(new URL(fixture.mcpUrl), { authProvider: provider });
    await transport.finishAuth(params);
    const client = new Client({ name: "fixture-test", version: "1.0.0" });
    await client.connect(transport);
    const me = whoami(await client.callTool({ name: "whoami", arguments: {} }));
    assert.equal(me.clientId, provider.info?.client_id);
    assert.equal(me.resource, fixture.mcpUrl);
    // No scope in WWW-Authenticate: the SDK asks for scopes_supported.
    assert.deepEqual(me.scopes, ["mcp:tools", "mcp:extra"]);
    const echoed = await client.callTool({ name: "echo", arguments: { text: "hi" } });
    assert.deepEqual((echoed as { content: unknown }).content, [{ type: "text", text: "hi" }]);
    assert.ok(provider.saved?.refresh_token, "the fixture issues refresh tokens");

    const stats = await fixture.stats();
    assert.equal(stats.registrations, 1);
    assert.equal(stats.logins, 1);
    assert.equal(stats.authorizations, 1);
    assert.equal(stats.codeExchanges, 1);
    assert.equal(stats.refreshes, 0);
    assert.equal(stats.lastAuthorization?.resource, fixture.mcpUrl);
    await client.close();
  });

  it("after the access token is revoked, the next request's 401 is answered by a refresh (rotated)", async () => {
    const before = provider.saved;
    assert.ok(before?.refresh_token);
    assert.equal(await fixture.revokeAccessTokens(), 1);
    const client = new Client({ name: "fixture-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(fixture.mcpUrl), { authProvider: provider }),
    );
    const me = whoami(await client.callTool({ name: "whoami", arguments: {} }));
    assert.equal(me.clientId, provider.info?.client_id);
    const stats = await fixture.stats();
    assert.equal(stats.refreshes, 1);
    assert.equal(stats.authorizations, 1, "no second authorization");
    assert.notEqual(provider.saved?.access_token, before.access_token);
    assert.notEqual(provider.saved?.refresh_token, before.refresh_token, "refresh tokens rotate");
    await client.close();

    // The old refresh token is spent.
    const reuse = await fetch(new URL("/token", fixture.authUrl), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: before.refresh_token,
        client_id: provider.info?.client_id ?? "",
      }),
    });
    assert.equal(reuse.status, 400);
    assert.equal((await fixture.stats()).refreshFailures, 1);
  });

  it("browser-follow carries the login cookie and reports where a chain ends in an error", async () => {
    const url = new URL("/authorize", fixture.authUrl);
    url.search = new URLSearchParams({
      client_id: "no-such-client",
      redirect_uri: callback.url,
      response_type: "code",
      code_challenge: "x".repeat(43),
      code_challenge_method: "S256",
    }).toString();
    const result = await browse(url.href);
    assert.equal(result.code, 1);
    // Without the cookie it would loop /authorize -> /login until the hop limit.
    assert.match(result.stderr, /\/authorize\?.* answered 400: .*invalid_client/);
  });
});
