import assert from "node:assert/strict";
import { once } from "node:events";
import { connect, createServer } from "node:net";
import { describe, it } from "node:test";
import { AuthError } from "./errors.ts";
import { CALLBACK_PATH, type LoopbackCallback, listenForCallback } from "./loopback-callback.ts";

/** Runs `body` with a listener on a free port, closed afterwards whatever happens. */
async function withCallback(body: (callback: LoopbackCallback) => Promise<void>, server = "github") {
  const callback = await listenForCallback(0, server);
  try {
    await body(callback);
  } finally {
    callback.close();
  }
}

const get = (callback: LoopbackCallback, query: string) =>
  fetch(`${callback.redirectUrl}?${query}`).then(async (response) => ({
    status: response.status,
    body: await response.text(),
  }));

/** Whether a TCP connection to host:port is accepted. */
async function accepts(host: string, port: number): Promise<boolean> {
  const socket = connect({ host, port });
  try {
    await Promise.race([
      once(socket, "connect"),
      once(socket, "error").then(([error]) => Promise.reject(error)),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}

const isAuthError =
  (code: string, ...patterns: RegExp[]) =>
  (error: unknown) => {
    assert.ok(error instanceof AuthError, `an AuthError, not ${String(error)}`);
    assert.equal(error.code, code);
    for (const pattern of patterns) assert.match(error.message, pattern);
    return true;
  };

describe("listenForCallback", () => {
  it("listens on 127.0.0.1 only, at the port its redirect URL names", async () => {
    await withCallback(async (callback) => {
      assert.ok(callback.port > 0);
      assert.equal(callback.redirectUrl, `http://127.0.0.1:${callback.port}${CALLBACK_PATH}`);
      assert.equal(await accepts("127.0.0.1", callback.port), true);
      // Linux routes all of 127/8 to loopback: a listener on every interface would accept here.
      assert.equal(await accepts("127.0.0.2", callback.port), false);
    });
  });

  it("refuses requests with a wrong or no state (400) and keeps waiting for the right one", async () => {
    await withCallback(async (callback) => {
      const controller = new AbortController();
      let settled = false;
      const waiting = callback.wait("s3cr3t", controller.signal).finally(() => {
        settled = true;
      });
      const wrong = await get(callback, "code=forged&state=other");
      assert.equal(wrong.status, 400);
      assert.match(wrong.body, /not the authorization ToolScript is waiting for/);
      assert.equal((await get(callback, "code=forged")).status, 400);
      // A forged denial cannot end the login either.
      assert.equal((await get(callback, "error=access_denied&state=other")).status, 400);
      assert.equal((await fetch(`http://127.0.0.1:${callback.port}/elsewhere?state=s3cr3t`)).status, 404);
      assert.equal(settled, false);
      const right = await get(callback, "code=the-code&state=s3cr3t&iss=https%3A%2F%2Fauth.example");
      assert.equal(right.status, 200);
      assert.match(right.body, /ToolScript can now use github/);
      const params = await waiting;
      assert.equal(params.get("code"), "the-code");
      assert.equal(params.get("state"), "s3cr3t");
      assert.equal(params.get("iss"), "https://auth.example");
    });
  });

  it("a request before wait() is refused: there is no state to match yet", async () => {
    await withCallback(async (callback) => {
      assert.equal((await get(callback, "code=early&state=")).status, 400);
      assert.equal((await get(callback, "code=early")).status, 400);
    });
  });

  it("a redirect with the right state and no code is refused and does not end the wait", async () => {
    await withCallback(async (callback) => {
      const controller = new AbortController();
      const waiting = callback.wait("st", controller.signal);
      assert.equal((await get(callback, "state=st")).status, 400);
      assert.equal((await get(callback, "state=st&code=c")).status, 200);
      assert.equal((await waiting).get("code"), "c");
    });
  });

  it("error=access_denied rejects with auth.denied naming the server and the error", async () => {
    await withCallback(async (callback) => {
      // The rejection is awaited from the start (as the login does): it comes during the request.
      const rejected = assert.rejects(callback.wait("st", new AbortController().signal), (error) => {
        isAuthError("auth.denied", /github/, /access_denied/, /user said no/)(error);
        assert.deepEqual((error as AuthError).data, { server: "github", error: "access_denied" });
        return true;
      });
      const denied = await get(callback, "error=access_denied&error_description=user%20said%20no&state=st");
      assert.equal(denied.status, 400);
      assert.match(denied.body, /Authorization refused/);
      await rejected;
    });
  });

  it("escapes the server name and the error in the page it answers", async () => {
    await withCallback(async (callback) => {
      const rejected = assert.rejects(
        callback.wait("st", new AbortController().signal),
        isAuthError("auth.denied"),
      );
      const page = await get(callback, "error=%3Cscript%3E&state=st");
      assert.doesNotMatch(page.body, /<script>/);
      assert.doesNotMatch(page.body, /<b>/);
      assert.match(page.body, /&#60;b&#62;evil/);
      await rejected;
    }, "<b>evil</b>");
  });

  it("the abort signal rejects the wait with its reason, also when aborted before waiting", async () => {
    await withCallback(async (callback) => {
      const controller = new AbortController();
      const waiting = callback.wait("st", controller.signal);
      const reason = new Error("closing");
      controller.abort(reason);
      await assert.rejects(waiting, (error) => error === reason);
      await assert.rejects(callback.wait("st", AbortSignal.abort(reason)), (error) => error === reason);
    });
  });

  it("a port in use is auth.callback_failed naming the port", async () => {
    const holder = createServer();
    holder.listen(0, "127.0.0.1");
    await once(holder, "listening");
    const port = (holder.address() as { port: number }).port;
    try {
      await assert.rejects(
        listenForCallback(port, "github"),
        isAuthError("auth.callback_failed", new RegExp(`127\\.0\\.0\\.1:${port}\\b`), /EADDRINUSE/),
      );
    } finally {
      holder.close();
    }
  });

  it("close() frees the port, also with a connection left open", async () => {
    const first = await listenForCallback(0);
    const port = first.port;
    const keptOpen = connect({ host: "127.0.0.1", port });
    await once(keptOpen, "connect");
    first.close();
    const second = await listenForCallback(port);
    try {
      assert.equal(second.port, port);
    } finally {
      second.close();
      keptOpen.destroy();
    }
  });
});
