import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type LoopbackAuthorizationServer,
  startLoopbackAuthorizationServer,
} from "../../test/helpers/loopback-authorization-server.ts";
import { MemoryCredentialStore } from "../../test/helpers/memory-credential-store.ts";
import type { OAuthSettings } from "../config/servers.ts";
import { AuthError } from "./errors.ts";
import { listenForCallback } from "./loopback-callback.ts";
import { type PendingLogin, ServerAuthorization } from "./server-authorization.ts";
import type { CredentialStore, ServerCredentials } from "./stored-credentials.ts";

/** The person in the browser: follows the authorization URL's redirect to the loopback callback. */
async function approve(url: string): Promise<void> {
  await (await fetch(url)).text();
}

interface Setup {
  store?: CredentialStore;
  interactive?: boolean;
  settings?: OAuthSettings;
  url?: string;
  loginTimeoutMs?: number;
  openUrl?: (url: string) => Promise<unknown>;
}

function subject(setup: Setup = {}) {
  const opened: string[] = [];
  const openUrl = setup.openUrl ?? approve;
  const authorization = new ServerAuthorization({
    server: "secure",
    url: setup.url ?? "https://mcp.example/mcp",
    settings: setup.settings ?? {},
    store: setup.store ?? new MemoryCredentialStore(),
    interactive: setup.interactive ?? true,
    loginTimeoutMs: setup.loginTimeoutMs ?? 10_000,
    openUrl: (url) => {
      opened.push(url);
      return openUrl(url);
    },
  });
  return { authorization, opened };
}

const loginRequired = (error: unknown) => {
  assert.ok(error instanceof AuthError, String(error));
  assert.equal(error.code, "auth.login_required");
  assert.match(error.message, /`toolscript auth login secure`/);
  return true;
};

function storeWith(tokens: { expires_in?: number; refresh_token?: string }, savedAt: number, url: string) {
  const store = new MemoryCredentialStore();
  const record: ServerCredentials = {
    version: 1,
    url,
    clients: { "https://auth.example/": { client_id: "stored-client", issuer: "https://auth.example/" } },
    tokens: {
      value: { access_token: "stored-at", token_type: "Bearer", issuer: "https://auth.example/", ...tokens },
      savedAt,
    },
  };
  store.put("secure", record);
  return store;
}

describe("ServerAuthorization without a network", () => {
  const url = "https://mcp.example/mcp";

  it("non-interactive without tokens: auth.login_required naming `toolscript auth login <server>`", async () => {
    const { authorization: auth, opened } = subject({ interactive: false });
    assert.equal(await auth.token(), undefined);
    await assert.rejects(auth.authorize({}), loginRequired);
    await assert.rejects(auth.login(), (error) => {
      loginRequired(error);
      assert.equal((error as AuthError).data.command, "toolscript auth login secure");
      return true;
    });
    assert.deepEqual(opened, []);
  });

  it("status(): needs login, logged in, expired, from what is stored", async () => {
    const fresh = await subject().authorization.status();
    assert.deepEqual(fresh, { server: "secure", url, state: "needs login", refreshable: false });

    const savedAt = Date.now();
    const live = subject({ store: storeWith({ expires_in: 3600, refresh_token: "rt" }, savedAt, url) });
    const status = await live.authorization.status();
    assert.equal(status.state, "logged in");
    assert.equal(status.expiresAt, new Date(savedAt + 3600_000).toISOString());
    assert.equal(status.refreshable, true);
    assert.equal(status.issuer, "https://auth.example/");
    assert.equal(status.clientId, "stored-client");

    const old = Date.now() - 20_000;
    const expired = await subject({ store: storeWith({ expires_in: 10 }, old, url) }).authorization.status();
    assert.equal(expired.state, "expired");
    assert.equal(expired.expiresAt, new Date(old + 10_000).toISOString());
    assert.equal(expired.refreshable, false);

    // No expiry given: logged in until the server says otherwise.
    const forever = await subject({ store: storeWith({}, old, url) }).authorization.status();
    assert.equal(forever.state, "logged in");
    assert.equal(forever.expiresAt, undefined);

    // Tokens stored for another URL do not count.
    const moved = subject({ store: storeWith({ expires_in: 3600 }, savedAt, "https://old.example/mcp") });
    assert.equal((await moved.authorization.status()).state, "needs login");
  });

  it("token() returns the stored access token as is when it is not about to expire", async () => {
    const { authorization: auth } = subject({
      store: storeWith({ expires_in: 3600, refresh_token: "rt" }, Date.now(), url),
      interactive: false,
    });
    // No network was touched: mcp.example would not answer.
    assert.equal(await auth.token(), "stored-at");
  });

  it("logout() clears what is stored and says whether there was a login", async () => {
    const store = storeWith({ expires_in: 3600, refresh_token: "rt" }, Date.now(), url);
    const { authorization: auth } = subject({ store });
    assert.equal(await auth.logout(), true);
    assert.equal((await auth.status()).state, "needs login");
    assert.equal(await auth.token(), undefined);
    const record = store.record("secure");
    assert.deepEqual(record?.clients, {});
    assert.equal(record?.tokens, undefined);
    assert.equal(await auth.logout(), false);
  });
});

describe("ServerAuthorization against a loopback authorization server", () => {
  let server: LoopbackAuthorizationServer;

  before(async () => {
    server = await startLoopbackAuthorizationServer({
      tokenTtlS: 30,
      scopesSupported: ["mcp:read", "mcp:write"],
    });
  });
  after(() => server?.close());

  const at = (setup: Setup = {}) => subject({ url: server.mcpUrl, ...setup });

  it("login(): registers, opens the authorization URL, exchanges the code (with iss) and stores tokens", async () => {
    const store = new MemoryCredentialStore();
    const { authorization: auth, opened } = at({ store, settings: { scopes: "mcp:read" } });
    const pending: (PendingLogin | undefined)[] = [];
    auth.onPendingChange = (login) => pending.push(login);
    const before = { registrations: server.registrations, exchanges: server.codeExchanges };
    await auth.login();
    assert.equal(server.registrations, before.registrations + 1);
    assert.equal(server.codeExchanges, before.exchanges + 1);
    assert.equal(opened.length, 1);
    const asked = new URL(opened[0] as string).searchParams;
    assert.equal(asked.get("scope"), "mcp:read");
    assert.equal(asked.get("resource"), server.mcpUrl);
    assert.match(asked.get("redirect_uri") ?? "", /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.deepEqual(pending, [{ url: opened[0], command: "toolscript auth login secure" }, undefined]);
    assert.equal(auth.pending, undefined);
    // Another process on the same store is logged in with the same registration.
    const status = await at({ store, interactive: false }).authorization.status();
    assert.equal(status.state, "logged in");
    assert.equal(status.scopes, "mcp:read");
    assert.equal(status.issuer, server.issuer);
    assert.equal(status.clientId, `client-${server.registrations}`);
  });

  it("a second login reuses the remembered port and registration; a taken port means a new one of each", async () => {
    const store = new MemoryCredentialStore();
    const { authorization: auth, opened } = at({ store });
    const redirectPort = (index: number) =>
      Number(new URL(new URL(opened[index] as string).searchParams.get("redirect_uri") ?? "").port);
    const registrations = server.registrations;
    await auth.login();
    await auth.login();
    assert.equal(server.registrations, registrations + 1);
    assert.equal(redirectPort(1), redirectPort(0));
    const taken = await listenForCallback(redirectPort(1));
    try {
      await auth.login();
    } finally {
      taken.close();
    }
    assert.notEqual(redirectPort(2), redirectPort(1));
    assert.equal(server.registrations, registrations + 2, "the old registration names the old redirect URI");
    assert.equal((await auth.status()).state, "logged in");
  });

  it("a pre-registered client logs in without registering and is not written to the store", async () => {
    const store = new MemoryCredentialStore();
    const { authorization: auth, opened } = at({ store, settings: { clientId: "pre-registered" } });
    const registrations = server.registrations;
    await auth.login();
    assert.equal(server.registrations, registrations);
    assert.equal(new URL(opened[0] as string).searchParams.get("client_id"), "pre-registered");
    assert.deepEqual(store.record("secure")?.clients, {});
    assert.equal((await auth.status()).clientId, "pre-registered");
  });

  it("token() close to expiry: one refresh for 5 concurrent callers, all get the new token", async () => {
    const store = new MemoryCredentialStore();
    const { authorization: auth } = at({ store });
    await auth.login();
    const old = (await auth.oauth.tokens())?.access_token;
    // A separate instance, as a serving process beside `toolscript auth login` would be.
    const { authorization: serving, opened } = at({ store, interactive: false });
    const refreshes = server.refreshes;
    const failures = server.refreshFailures;
    const tokens = await Promise.all(Array.from({ length: 5 }, () => serving.token()));
    assert.equal(server.refreshes, refreshes + 1);
    assert.equal(server.refreshFailures, failures);
    assert.equal(new Set(tokens).size, 1);
    assert.notEqual(tokens[0], old);
    assert.equal(tokens[0], (await serving.oauth.tokens())?.access_token);
    assert.deepEqual(opened, []);
  });

  it("two processes refreshing at once with one rotating refresh token: neither logs the other out", async () => {
    const store = new MemoryCredentialStore();
    await at({ store }).authorization.login();
    // Two instances on one store: `toolscript serve` and a `toolscript run` beside it.
    const { authorization: serve } = at({ store, interactive: false });
    const { authorization: run } = at({ store, interactive: false });
    const failures = server.refreshFailures;
    const [fromServe, fromRun] = await Promise.all([serve.token(), run.token()]);
    // The loser's refresh token was already rotated away.
    assert.equal(server.refreshFailures, failures + 1);
    assert.ok(fromServe && fromRun, `both have a token: ${fromServe}, ${fromRun}`);
    const stored = await serve.oauth.tokens();
    assert.ok(stored?.refresh_token, "the store still holds a refreshable login");
    assert.equal((await serve.status()).state, "logged in");
  });

  it("a 401 with a working refresh token refreshes without a browser; concurrent 401s share it", async () => {
    const store = new MemoryCredentialStore();
    await at({ store }).authorization.login();
    const { authorization: auth, opened } = at({ store });
    const refreshes = server.refreshes;
    const ctx = () => ({
      response: new Response(null, {
        status: 401,
        headers: { "www-authenticate": `Bearer resource_metadata="${server.resourceMetadataUrl}"` },
      }),
      serverUrl: new URL(server.mcpUrl),
      fetchFn: fetch,
    });
    const provider = auth.transportProvider;
    await Promise.all([provider.onUnauthorized?.(ctx()), provider.onUnauthorized?.(ctx())]);
    assert.equal(server.refreshes, refreshes + 1);
    assert.deepEqual(opened, []);
  });

  it("a refused refresh where nobody can log in: auth.login_required, and the dead tokens are dropped", async () => {
    const store = new MemoryCredentialStore();
    await at({ store }).authorization.login();
    server.revokeRefreshTokens();
    const { authorization: auth, opened } = at({ store, interactive: false });
    await assert.rejects(auth.authorize({}), loginRequired);
    assert.equal((await auth.status()).state, "needs login");
    assert.deepEqual(opened, []);
  });

  it("stepUp() asks for the union of the granted scopes and the new ones", async () => {
    const store = new MemoryCredentialStore();
    const { authorization: auth } = at({ store, settings: { scopes: "mcp:read" } });
    await auth.login();
    assert.equal((await auth.oauth.tokens())?.scope, "mcp:read");
    await auth.stepUp("mcp:write mcp:read", new URL(server.resourceMetadataUrl));
    assert.equal(server.authorizations.at(-1)?.get("scope"), "mcp:read mcp:write");
    assert.equal((await auth.status()).scopes, "mcp:read mcp:write");
  });

  it("a refusal in the browser: login() is auth.denied, nothing stays pending, the port is free", async () => {
    const { authorization: auth, opened } = at({});
    server.deny = true;
    try {
      await assert.rejects(auth.login(), (error) => {
        assert.ok(error instanceof AuthError, String(error));
        assert.equal(error.code, "auth.denied");
        assert.match(error.message, /secure/);
        assert.match(error.message, /access_denied/);
        return true;
      });
    } finally {
      server.deny = false;
    }
    assert.equal(auth.pending, undefined);
    const port = Number(new URL(new URL(opened[0] as string).searchParams.get("redirect_uri") ?? "").port);
    (await listenForCallback(port)).close();
  });

  it("a login nobody completes: auth.login_required; retries stop opening the browser until login()", async () => {
    const { authorization: auth, opened } = at({ loginTimeoutMs: 300, openUrl: async () => {} });
    await assert.rejects(auth.authorize({}), (error) => {
      loginRequired(error);
      assert.match((error as Error).message, /within 0 s|within \d+ s/);
      return true;
    });
    assert.equal(opened.length, 1);
    await assert.rejects(auth.authorize({}), loginRequired);
    assert.equal(opened.length, 1, "no second browser window for a retry");
    // An explicit login asks again.
    await assert.rejects(auth.login(), loginRequired);
    assert.equal(opened.length, 2);
  });

  it("close() ends a login waiting for a person", async () => {
    const { authorization: auth, opened } = at({ openUrl: async () => {} });
    const login = auth.login();
    while (opened.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    auth.close();
    await assert.rejects(login, (error) => {
      assert.ok(error instanceof AuthError);
      assert.equal(error.code, "auth.login_required");
      assert.match(error.message, /abandoned/);
      return true;
    });
  });
});
