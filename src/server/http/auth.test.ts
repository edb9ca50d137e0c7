import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { describe, it } from "node:test";
import { assertAuthConfigured, ClientTokens } from "./auth.ts";

function withAuth(authorization?: string): IncomingMessage {
  return { headers: authorization === undefined ? {} : { authorization } } as IncomingMessage;
}

describe("ClientTokens", () => {
  it("names the client whose token the request carries", () => {
    const tokens = new ClientTokens({ token: "t-default", clients: { alice: "t-alice", bob: "t-bob" } });
    assert.equal(tokens.size, 3);
    assert.equal(tokens.identify(withAuth("Bearer t-alice")), "alice");
    assert.equal(tokens.identify(withAuth("bearer   t-bob ")), "bob");
    assert.equal(tokens.identify(withAuth("Bearer t-default")), "default");
    assert.equal(tokens.identify(withAuth("Bearer t-alic")), undefined, "a prefix is not the token");
    assert.equal(tokens.identify(withAuth("Bearer t-alice-and-more")), undefined);
    assert.equal(tokens.identify(withAuth("Basic t-alice")), undefined);
    assert.equal(tokens.identify(withAuth()), undefined);
  });

  it("refuses two clients with one token, and a client named like the single token's", () => {
    assert.throws(
      () => new ClientTokens({ clients: { alice: "same", bob: "same" } }),
      (error: Error & { code?: string }) =>
        error.code === "server.bad_clients" && /"alice" and "bob" have the same token/.test(error.message),
    );
    assert.throws(
      () => new ClientTokens({ token: "x", clients: { default: "y" } }),
      /names a client "default"/,
    );
    assert.throws(() => new ClientTokens({ token: "x", clients: { alice: "x" } }), /same token/);
  });
});

describe("assertAuthConfigured", () => {
  it("refuses a server anyone could use, saying where the token goes", () => {
    const none = new ClientTokens({});
    assert.throws(
      () => assertAuthConfigured("127.0.0.1", none, false),
      /TOOLSCRIPT_HTTP_TOKEN.*toolscript\.server\.http\.clients.*allowUnauthenticatedLoopback/s,
    );
    assert.throws(() => assertAuthConfigured("0.0.0.0", none, true), /non-loopback address \(0\.0\.0\.0\)/);
    assert.doesNotThrow(() => assertAuthConfigured("127.0.0.1", none, true));
    assert.doesNotThrow(() =>
      assertAuthConfigured("0.0.0.0", new ClientTokens({ clients: { a: "t" } }), false),
    );
  });
});
