import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StoredOAuthTokens } from "@modelcontextprotocol/client";
import { MemoryCredentialStore } from "../../test/helpers/memory-credential-store.ts";
import type { OAuthSettings } from "../config/servers.ts";
import { CALLBACK_PATH } from "./loopback-callback.ts";
import { CLIENT_NAME, GatewayOAuthProvider } from "./oauth-provider.ts";
import type { CredentialStore } from "./stored-credentials.ts";

/** The vault's contract in memory: values are copied in and out as JSON, as the sealed store does. */

const URL_A = "https://mcp.example/mcp";
const ISSUER = "https://auth.example/";
const OTHER_ISSUER = "https://other-auth.example/";

function provider(store: CredentialStore, settings: OAuthSettings = {}, url = URL_A) {
  return new GatewayOAuthProvider("github", url, settings, store);
}

const tokens = (extra: Partial<StoredOAuthTokens> = {}): StoredOAuthTokens => ({
  access_token: "at-1",
  token_type: "Bearer",
  expires_in: 3600,
  refresh_token: "rt-1",
  issuer: ISSUER,
  ...extra,
});

describe("GatewayOAuthProvider", () => {
  it("saves tokens to the store at once: another provider on the same store reads them", async () => {
    const store = new MemoryCredentialStore();
    const cli = provider(store);
    const serve = provider(store);
    assert.equal(await serve.tokens(), undefined);
    await cli.saveTokens(tokens());
    assert.deepEqual(await serve.tokens(), tokens());
    const saved = store.record("github")?.tokens;
    assert.equal(saved?.value.access_token, "at-1");
    assert.equal(typeof saved?.savedAt, "number");
    // And the other way: a refresh by the serving process is seen by the CLI.
    await serve.saveTokens(tokens({ access_token: "at-2", refresh_token: "rt-2" }));
    assert.equal((await cli.tokens())?.access_token, "at-2");
    assert.equal((await cli.tokens())?.refresh_token, "rt-2");
  });

  it("a refresh answer without a refresh token keeps the previous one from the same issuer", async () => {
    const store = new MemoryCredentialStore();
    const oauth = provider(store);
    await oauth.saveTokens(tokens());
    const { refresh_token: _, ...withoutRefresh } = tokens({ access_token: "at-2" });
    await oauth.saveTokens(withoutRefresh);
    assert.equal((await oauth.tokens())?.access_token, "at-2");
    assert.equal((await oauth.tokens())?.refresh_token, "rt-1");
    // A new refresh token replaces the old one.
    await oauth.saveTokens(tokens({ access_token: "at-3", refresh_token: "rt-3" }));
    assert.equal((await oauth.tokens())?.refresh_token, "rt-3");
  });

  it("never carries a refresh token over to tokens from another issuer", async () => {
    const oauth = provider(new MemoryCredentialStore());
    await oauth.saveTokens(tokens());
    const { refresh_token: _, ...fromElsewhere } = tokens({ access_token: "at-x", issuer: OTHER_ISSUER });
    await oauth.saveTokens(fromElsewhere);
    assert.equal((await oauth.tokens())?.access_token, "at-x");
    assert.equal((await oauth.tokens())?.refresh_token, undefined);
    assert.equal("refresh_token" in ((await oauth.tokens()) ?? {}), false);
  });

  it("a pre-registered client from the settings wins and is never written to the store", async () => {
    const store = new MemoryCredentialStore();
    const oauth = provider(store, { clientId: "pre-id", clientSecret: "pre-secret" });
    assert.deepEqual(await oauth.clientInformation({ issuer: ISSUER }), {
      client_id: "pre-id",
      client_secret: "pre-secret",
    });
    // The SDK stamps the issuer on the client and saves it back: that must not reach the store.
    await oauth.saveClientInformation(
      { client_id: "pre-id", client_secret: "pre-secret", issuer: ISSUER },
      {
        issuer: ISSUER,
      },
    );
    await oauth.saveClientInformation({ client_id: "dynamic" }, { issuer: ISSUER });
    assert.equal(store.values.size, 0);
    // A registration stored earlier (before the config named a client) is shadowed.
    const other = provider(store);
    await other.saveClientInformation({ client_id: "dynamic", client_secret: "old" }, { issuer: ISSUER });
    assert.equal((await oauth.clientInformation({ issuer: ISSUER }))?.client_id, "pre-id");
    assert.equal((await oauth.clientInformation())?.client_id, "pre-id");
    // A confidential client authenticates at the token endpoint: not "none".
    assert.equal(oauth.clientMetadata.token_endpoint_auth_method, undefined);
    assert.equal(
      (await provider(store, { clientId: "public" }).clientInformation())?.client_secret,
      undefined,
    );
  });

  it("dynamic clients are kept per issuer", async () => {
    const store = new MemoryCredentialStore();
    const oauth = provider(store);
    await oauth.saveClientInformation({ client_id: "at-a", issuer: ISSUER }, { issuer: ISSUER });
    await oauth.saveClientInformation({ client_id: "at-b", issuer: OTHER_ISSUER }, { issuer: OTHER_ISSUER });
    assert.equal((await oauth.clientInformation({ issuer: ISSUER }))?.client_id, "at-a");
    assert.equal((await oauth.clientInformation({ issuer: OTHER_ISSUER }))?.client_id, "at-b");
    assert.equal(await oauth.clientInformation({ issuer: "https://third.example/" }), undefined);
    assert.deepEqual(
      Object.keys(store.record("github")?.clients ?? {}).sort(),
      [ISSUER, OTHER_ISSUER].sort(),
    );
    // Without a context (an issuer named on the information itself).
    await oauth.saveClientInformation({ client_id: "at-c", issuer: "https://third.example/" });
    assert.equal(
      (await provider(store).clientInformation({ issuer: "https://third.example/" }))?.client_id,
      "at-c",
    );
    assert.equal(oauth.clientMetadata.token_endpoint_auth_method, "none");
  });

  it("beginFlow on a new port drops dynamic registrations (their redirect URI changed), not on the same port", async () => {
    const store = new MemoryCredentialStore();
    const oauth = provider(store);
    assert.equal(await oauth.preferredPort(), undefined);
    const first = await oauth.beginFlow(40001);
    assert.equal(oauth.redirectUrl, `http://127.0.0.1:40001${CALLBACK_PATH}`);
    assert.deepEqual(oauth.clientMetadata.redirect_uris, [oauth.redirectUrl]);
    await oauth.saveClientInformation({ client_id: "registered" }, { issuer: ISSUER });
    await oauth.saveTokens(tokens());
    // Another process reuses the port the registration was made with.
    assert.equal(await provider(store).preferredPort(), 40001);
    const second = await oauth.beginFlow(40001);
    assert.notEqual(second, first, "each flow gets a fresh state");
    assert.equal(oauth.state(), second);
    assert.equal((await oauth.clientInformation({ issuer: ISSUER }))?.client_id, "registered");
    await oauth.beginFlow(40002);
    assert.equal(await oauth.clientInformation({ issuer: ISSUER }), undefined);
    assert.equal(oauth.redirectUrl, `http://127.0.0.1:40002${CALLBACK_PATH}`);
    assert.equal(await provider(store).preferredPort(), 40002);
    // Tokens are not tied to the redirect URI: they stay.
    assert.equal((await oauth.tokens())?.access_token, "at-1");
  });

  it("with callbackPort configured, beginFlow keeps registrations whatever port it gets", async () => {
    const store = new MemoryCredentialStore();
    const oauth = provider(store, { callbackPort: 40100 });
    assert.equal(await oauth.preferredPort(), 40100);
    assert.equal(oauth.redirectUrl, `http://127.0.0.1:40100${CALLBACK_PATH}`);
    await oauth.beginFlow(40100);
    await oauth.saveClientInformation({ client_id: "registered" }, { issuer: ISSUER });
    await oauth.beginFlow(40101);
    assert.equal((await oauth.clientInformation({ issuer: ISSUER }))?.client_id, "registered");
  });

  it("redirectUrl is always defined (else the SDK takes it for a machine-to-machine client)", async () => {
    const oauth = provider(new MemoryCredentialStore());
    assert.match(oauth.redirectUrl, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.equal(oauth.clientMetadata.client_name, CLIENT_NAME);
    assert.deepEqual(oauth.clientMetadata.grant_types, ["authorization_code", "refresh_token"]);
  });

  it("invalidateCredentials drops only the part named", async () => {
    const store = new MemoryCredentialStore();
    const oauth = provider(store);
    const fill = async () => {
      await oauth.saveTokens(tokens());
      await oauth.saveClientInformation({ client_id: "c" }, { issuer: ISSUER });
      await oauth.saveDiscoveryState({ authorizationServerUrl: ISSUER });
      oauth.saveCodeVerifier("verifier");
    };
    await fill();
    await oauth.tokens(); // what the SDK read before the refresh that was refused
    await oauth.invalidateCredentials("tokens");
    assert.equal(await oauth.tokens(), undefined);
    assert.equal((await oauth.clientInformation({ issuer: ISSUER }))?.client_id, "c");
    assert.equal((await oauth.discoveryState())?.authorizationServerUrl, ISSUER);
    assert.equal(oauth.codeVerifier(), "verifier");

    await fill();
    await oauth.invalidateCredentials("client");
    assert.equal(await oauth.clientInformation({ issuer: ISSUER }), undefined);
    assert.equal((await oauth.tokens())?.access_token, "at-1");
    assert.ok(await oauth.discoveryState());

    await fill();
    await oauth.invalidateCredentials("discovery");
    assert.equal(await oauth.discoveryState(), undefined);
    assert.ok(await oauth.tokens());
    assert.ok(await oauth.clientInformation({ issuer: ISSUER }));

    await fill();
    const puts = store.puts;
    await oauth.invalidateCredentials("verifier");
    assert.equal(oauth.codeVerifier(), "");
    assert.equal(store.puts, puts, "the verifier lives in memory only");
    assert.ok(
      (await oauth.tokens()) &&
        (await oauth.clientInformation({ issuer: ISSUER })) &&
        (await oauth.discoveryState()),
    );

    await fill();
    await oauth.invalidateCredentials("all");
    assert.equal(await oauth.tokens(), undefined);
    assert.equal(await oauth.clientInformation({ issuer: ISSUER }), undefined);
    assert.equal(await oauth.discoveryState(), undefined);
  });

  it("a refused refresh keeps tokens another process saved since (it won the rotation race)", async () => {
    const store = new MemoryCredentialStore();
    const serve = provider(store);
    const run = provider(store);
    await serve.saveTokens(tokens());
    assert.equal((await run.tokens())?.refresh_token, "rt-1"); // run's SDK reads rt-1 and refreshes...
    await serve.saveTokens(tokens({ access_token: "at-2", refresh_token: "rt-2" })); // ...serve won
    await run.invalidateCredentials("tokens"); // run's refresh with rt-1 got invalid_grant
    assert.equal((await run.tokens())?.refresh_token, "rt-2");
    // The tokens it was handed themselves are dropped, and logout drops whatever is stored.
    await run.invalidateCredentials("tokens");
    assert.equal(await run.tokens(), undefined);
    await serve.saveTokens(tokens());
    await run.invalidateCredentials("all");
    assert.equal(await serve.tokens(), undefined);
  });

  it("the PKCE verifier and state stay in memory, never in the store", async () => {
    const store = new MemoryCredentialStore();
    const oauth = provider(store);
    const state = await oauth.beginFlow(40200);
    oauth.saveCodeVerifier("the-verifier");
    const stored = JSON.stringify([...store.values.values()]);
    assert.doesNotMatch(stored, /the-verifier/);
    assert.doesNotMatch(stored, new RegExp(state));
    assert.equal(provider(store).codeVerifier(), "");
  });

  it("ignores credentials stored for another URL (the config pointed the name elsewhere)", async () => {
    const store = new MemoryCredentialStore();
    await provider(store, {}, "https://old.example/mcp").saveTokens(tokens({ access_token: "old" }));
    await provider(store, {}, "https://old.example/mcp").saveClientInformation(
      { client_id: "old" },
      { issuer: ISSUER },
    );
    const moved = provider(store, {}, URL_A);
    assert.equal(await moved.tokens(), undefined);
    assert.equal(await moved.clientInformation({ issuer: ISSUER }), undefined);
    assert.equal(await moved.preferredPort(), undefined);
    await moved.saveTokens(tokens({ access_token: "new", refresh_token: undefined }));
    // Nothing carried over from the old server's record, which is replaced.
    assert.equal((await moved.tokens())?.refresh_token, undefined);
    assert.equal(store.record("github")?.url, URL_A);
    assert.deepEqual(store.record("github")?.clients, {});
  });

  it("ignores a stored record of another format version", async () => {
    const store = new MemoryCredentialStore();
    store.put("github", { version: 2, url: URL_A, clients: {}, tokens: { value: tokens(), savedAt: 1 } });
    assert.equal(await provider(store).tokens(), undefined);
  });
});
