import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MemoryCredentialStore } from "../../test/helpers/memory-credential-store.ts";
import type { OAuthSettings } from "../config/servers.ts";
import { Authorizations } from "./authorizations.ts";
import type { ServerCredentials } from "./stored-credentials.ts";

const URL_A = "https://a.example/mcp";
const ISSUER = "https://auth.example/";

function setup(settings = new Map<string, OAuthSettings>()) {
  const store = new MemoryCredentialStore();
  const secrets = new Set<string>();
  let opened = 0;
  const authorizations = new Authorizations({
    credentials: () => store,
    settings,
    interactive: false,
    openUrl: async () => {
      opened++;
    },
    onSecret: (...told) => {
      for (const secret of told) secrets.add(secret);
    },
  });
  return { store, secrets, authorizations, opened: () => opened };
}

describe("Authorizations", () => {
  it("forServer() makes one ServerAuthorization per server and finds it again", async () => {
    const { authorizations } = setup();
    const a = authorizations.forServer("a", URL_A);
    assert.equal(authorizations.forServer("a", URL_A), a);
    // What the upstream connection calls: by the config's name.
    const config = {
      kind: "http",
      name: "a",
      url: new URL(URL_A),
      headers: {},
      transport: "auto",
      disabled: false,
    } as const;
    assert.equal(authorizations.authorize(config), a);
    assert.equal(authorizations.get("a"), a);
    assert.equal(authorizations.get("b"), undefined);
    const b = authorizations.forServer("b", "https://b.example/mcp");
    assert.notEqual(b, a);
    assert.deepEqual(authorizations.all(), [a, b]);
  });

  it("each server gets its own settings (a pre-registered client)", async () => {
    const { authorizations } = setup(new Map([["a", { clientId: "pre-a" }]]));
    assert.equal((await authorizations.forServer("a", URL_A).oauth.clientInformation())?.client_id, "pre-a");
    assert.equal(await authorizations.forServer("b", URL_A).oauth.clientInformation(), undefined);
  });

  it("onSecret hears the access and refresh tokens and client secrets stored for a server", async () => {
    const { authorizations, secrets } = setup();
    const oauth = authorizations.forServer("a", URL_A).oauth;
    await oauth.saveClientInformation(
      { client_id: "c", client_secret: "client-secret-1" },
      { issuer: ISSUER },
    );
    await oauth.saveTokens({ access_token: "access-1", refresh_token: "refresh-1", token_type: "Bearer" });
    assert.ok(secrets.has("client-secret-1"));
    assert.ok(secrets.has("access-1"));
    assert.ok(secrets.has("refresh-1"));
    assert.ok(!secrets.has("c"), "a client id is not a secret");
  });

  it("onSecret hears secrets read from the store (saved by another process)", async () => {
    const { authorizations, secrets, store } = setup();
    const record: ServerCredentials = {
      version: 1,
      url: URL_A,
      clients: { [ISSUER]: { client_id: "c", client_secret: "stored-secret" } },
      tokens: {
        value: { access_token: "stored-access", refresh_token: "stored-refresh", token_type: "Bearer" },
        savedAt: 1,
      },
    };
    store.put("a", record);
    const authorization = authorizations.forServer("a", URL_A);
    assert.equal(secrets.size, 0, "nothing read yet");
    assert.equal((await authorization.status()).state, "logged in");
    assert.deepEqual([...secrets].sort(), ["stored-access", "stored-refresh", "stored-secret"]);
  });

  it("the store is resolved on first use, not when the registry is made", async () => {
    let resolved = 0;
    const authorizations = new Authorizations({
      credentials: () => {
        resolved++;
        return new MemoryCredentialStore();
      },
      settings: new Map(),
      interactive: false,
    });
    const authorization = authorizations.forServer("a", URL_A);
    assert.equal(resolved, 0);
    assert.equal((await authorization.status()).state, "needs login");
    assert.ok(resolved > 0);
  });

  it("non-interactive: a server that needs a login is auth.login_required, no browser opened", async () => {
    const { authorizations, opened } = setup();
    await assert.rejects(authorizations.forServer("a", URL_A).authorize({}), { code: "auth.login_required" });
    assert.equal(opened(), 0);
  });
});
