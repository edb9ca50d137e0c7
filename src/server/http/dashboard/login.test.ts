import assert from "node:assert/strict";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, test } from "node:test";
import { ClientTokens } from "../auth.ts";
import { answerLogin, DASHBOARD_COOKIE, DashboardLogins, readCookie } from "./login.ts";

function request(headers: Record<string, string> = {}, encrypted = false): IncomingMessage {
  return { headers, socket: { encrypted } } as unknown as IncomingMessage;
}

/** A response that keeps what was written. */
function recorder() {
  const seen = { status: 0, headers: {} as Record<string, string | number>, body: "" };
  const response = {
    writeHead(status: number, headers: Record<string, string | number> = {}) {
      seen.status = status;
      seen.headers = headers;
      return response;
    },
    end(body?: string) {
      seen.body = body ?? "";
    },
  };
  return { response: response as unknown as ServerResponse, seen };
}

const tokens = new ClientTokens({ token: "main-token", clients: { ci: "ci-token" } });

describe("dashboard login", () => {
  test("a right token makes a random session for its client; a wrong one none", () => {
    const logins = new DashboardLogins(tokens);
    assert.equal(logins.login("nope"), undefined);
    assert.equal(logins.login(""), undefined);
    const session = logins.login("ci-token");
    assert.equal(session?.client, "ci");
    assert.match(session?.sessionId ?? "", /^[A-Za-z0-9_-]{43}$/);
    assert.ok(!session?.sessionId.includes("ci-token"));
    assert.notEqual(logins.login("ci-token")?.sessionId, session?.sessionId);
  });

  test("the cookie is HttpOnly, SameSite=Strict, scoped to /dashboard, Secure only over https", () => {
    const logins = new DashboardLogins(tokens);
    const cookie = logins.cookie("abc", false);
    assert.match(cookie, /^toolscript_dashboard=abc; /);
    for (const part of ["HttpOnly", "SameSite=Strict", "Path=/dashboard", "Max-Age=43200"])
      assert.ok(cookie.split("; ").includes(part), `${cookie} has ${part}`);
    assert.ok(!cookie.includes("Secure"));
    assert.ok(logins.cookie("abc", true).endsWith("; Secure"));
  });

  test("authorize: the session cookie, a bearer token, or why not", () => {
    let now = 1000;
    const logins = new DashboardLogins(tokens, { ttlMs: 60_000, now: () => now });
    const id = logins.login("main-token")?.sessionId ?? "";
    assert.deepEqual(logins.authorize(request({ cookie: `other=1; ${DASHBOARD_COOKIE}=${id}` })), {
      ok: true,
      client: "default",
    });
    assert.deepEqual(logins.authorize(request({ authorization: "Bearer ci-token" })), {
      ok: true,
      client: "ci",
    });
    const wrongBearer = logins.authorize(request({ authorization: "Bearer main-tokenX" }));
    assert.equal(wrongBearer.ok, false);
    assert.match(wrongBearer.ok ? "" : wrongBearer.why, /wrong bearer token/);
    const none = logins.authorize(request());
    assert.match(none.ok ? "" : none.why, /not logged in/);
    const unknown = logins.authorize(request({ cookie: `${DASHBOARD_COOKIE}=forged` }));
    assert.match(unknown.ok ? "" : unknown.why, /expired or is unknown/);
    now += 60_000;
    const expired = logins.authorize(request({ cookie: `${DASHBOARD_COOKIE}=${id}` }));
    assert.equal(expired.ok, false);
    assert.equal(logins.size, 0, "the expired session is gone");
  });

  test("no tokens configured: open to whoever reaches the port, no cookie set", () => {
    const logins = new DashboardLogins(new ClientTokens({}));
    assert.equal(logins.open, true);
    assert.deepEqual(logins.authorize(request()), { ok: true, client: "anonymous" });
    const { response, seen } = recorder();
    answerLogin(logins, request(), response, "anything");
    assert.equal(seen.status, 303);
    assert.equal(seen.headers.location, "/dashboard");
    assert.equal(seen.headers["set-cookie"], undefined);
  });

  test("the oldest session goes when the table is full", () => {
    const logins = new DashboardLogins(tokens, { maxSessions: 2 });
    const first = logins.login("main-token")?.sessionId ?? "";
    logins.login("main-token");
    logins.login("main-token");
    assert.equal(logins.size, 2);
    assert.equal(logins.authorize(request({ cookie: `${DASHBOARD_COOKIE}=${first}` })).ok, false);
  });

  test("answerLogin: 303 to the clean URL with the cookie; a wrong token gets the 401 page", () => {
    const logins = new DashboardLogins(tokens);
    const good = recorder();
    answerLogin(logins, request({ "x-forwarded-proto": "https" }), good.response, "main-token");
    assert.equal(good.seen.status, 303);
    assert.equal(good.seen.headers.location, "/dashboard");
    const cookie = String(good.seen.headers["set-cookie"]);
    assert.match(cookie, /; Secure$/);
    assert.ok(!cookie.includes("main-token"));
    const bad = recorder();
    answerLogin(logins, request(), bad.response, "<script>alert(1)</script>");
    assert.equal(bad.seen.status, 401);
    assert.match(bad.seen.body, /wrong token/);
    assert.ok(!bad.seen.body.includes("<script>alert"), "the given token is not echoed");
    assert.match(String(bad.seen.headers["content-security-policy"]), /default-src 'self'/);
  });

  test("readCookie finds one cookie among several", () => {
    assert.equal(
      readCookie(request({ cookie: "a=1; toolscript_dashboard=xyz ; b=2" }), DASHBOARD_COOKIE),
      "xyz",
    );
    assert.equal(readCookie(request({ cookie: "a=1" }), DASHBOARD_COOKIE), undefined);
    assert.equal(readCookie(request(), DASHBOARD_COOKIE), undefined);
  });
});
