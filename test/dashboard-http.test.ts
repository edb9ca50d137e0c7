import assert from "node:assert/strict";
import { get } from "node:http";
import { after, describe, test } from "node:test";
import { Gateway } from "../src/gateway/gateway.ts";
import { serveAdmin } from "../src/server/http/admin-server.ts";
import { MAX_EVENT_STREAMS } from "../src/server/http/dashboard/event-streams.ts";
import { serveHttp } from "../src/server/http/http-server.ts";
import { SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

interface SseEvent {
  event: string;
  data: unknown;
}

/** Reads server-sent events from `response` until `enough` says so (or `ms` pass); then stops reading. */
async function readEvents(
  response: Response,
  enough: (events: SseEvent[]) => boolean,
  ms = 5000,
): Promise<SseEvent[]> {
  const reader = response.body?.getReader();
  assert.ok(reader);
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffer = "";
  const deadline = Date.now() + ms;
  try {
    while (!enough(events) && Date.now() < deadline) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<undefined>((resolve) =>
          setTimeout(() => resolve(undefined), Math.max(1, deadline - Date.now())),
        ),
      ]);
      if (chunk === undefined || chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.+)$/m.exec(frame)?.[1];
        const data = /^data: (.+)$/m.exec(frame)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) });
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return events;
}

/** The status of a GET naming `host` in its Host header (fetch always names the URL's). */
function statusWithHost(url: string, host: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { ...headers, host } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on("error", reject);
  });
}

type Totals = { toolCalls: { ok: number; denied: number }; executions: { ok: number } };

describe("dashboard over HTTP", () => {
  const dir = tempDir("dashboard-http");
  const closers: Array<() => Promise<void>> = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
    dir.remove();
  });

  async function gatewayWith(toolscript: Record<string, unknown> = {}) {
    const gateway = new Gateway({
      config: {
        mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
        toolscript: { storage: { dir: `${dir.path}/${closers.length}` }, ...toolscript },
      },
    });
    closers.push(() => gateway.close());
    await gateway.start();
    return gateway;
  }

  test("login by ?token= sets an HttpOnly cookie and redirects to the clean URL; the page and events need it", async () => {
    const gateway = await gatewayWith();
    const running = await serveHttp(gateway, { host: "127.0.0.1", port: 0, token: "dash-token" });
    closers.push(() => running.close());
    const origin = new URL(running.url).origin;

    const page = await fetch(`${origin}/dashboard`);
    assert.equal(page.status, 401);
    assert.match(await page.text(), /not logged in/);
    const wrong = await fetch(`${origin}/dashboard?token=nope`, { redirect: "manual" });
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /wrong token/);
    assert.equal((await fetch(`${origin}/dashboard/events`)).status, 401);

    const login = await fetch(`${origin}/dashboard?token=dash-token`, { redirect: "manual" });
    assert.equal(login.status, 303);
    assert.equal(login.headers.get("location"), "/dashboard");
    const cookie = login.headers.get("set-cookie") ?? "";
    assert.match(cookie, /^toolscript_dashboard=[\w-]+; HttpOnly; SameSite=Strict; Path=\/dashboard/);
    assert.ok(!cookie.includes("dash-token"));
    const session = cookie.split(";")[0] ?? "";

    const html = await fetch(`${origin}/dashboard`, { headers: { cookie: session } });
    assert.equal(html.status, 200);
    assert.match(html.headers.get("content-security-policy") ?? "", /default-src 'self'/);
    assert.equal(html.headers.get("x-frame-options"), "DENY");
    assert.equal(html.headers.get("cache-control"), "no-store");
    assert.match(await html.text(), /<script type="module" src="\/dashboard\/app.js">/);
    assert.equal((await fetch(`${origin}/dashboard/app.js`)).status, 200, "static files need no login");
    const style = await fetch(`${origin}/dashboard/app.css`);
    assert.equal(style.status, 200);
    assert.match(style.headers.get("content-type") ?? "", /^text\/css/);
    const bearer = await fetch(`${origin}/dashboard`, { headers: { authorization: "Bearer dash-token" } });
    assert.equal(bearer.status, 200, "a bearer token does too");
    assert.equal(
      await statusWithHost(`${origin}/dashboard`, "evil.example", { cookie: session }),
      403,
      "the Host check holds against DNS rebinding",
    );
    assert.equal(
      (await fetch(`${origin}/dashboard`, { method: "POST", headers: { cookie: session } })).status,
      405,
    );
  });

  test("events: a snapshot naming the upstreams, then a burst coalesced into a few messages", async () => {
    const gateway = await gatewayWith({ policy: { deny: ["scripted/fail"] } });
    const running = await serveHttp(gateway, { host: "127.0.0.1", port: 0, token: "dash-token" });
    closers.push(() => running.close());
    const origin = new URL(running.url).origin;
    const program =
      'await tools.scripted.echo({ message: "a" }); try { await tools.scripted.fail({}); } catch {} return 1;';
    assert.equal((await gateway.execute(program)).error, undefined);

    const stream = await fetch(`${origin}/dashboard/events`, {
      headers: { authorization: "Bearer dash-token" },
    });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get("content-type") ?? "", /text\/event-stream/);
    // A burst of 5,000 tool calls in one go, as the audit log reports them.
    const burst = () => {
      for (let index = 0; index < 5000; index += 1)
        gateway.activity.emit({
          type: "audit",
          entry: {
            kind: "tool_call",
            time: Date.now(),
            session: "s",
            server: "scripted",
            tool: "echo",
            argsDigest: "",
            argsBytes: 0,
            outcome: "ok",
            durationMs: 1,
          },
        });
    };
    let burstAt = 0;
    const events = await readEvents(stream, (seen) => {
      if (seen.length === 1 && burstAt === 0) {
        burstAt = Date.now();
        setImmediate(burst);
      }
      const last = seen.filter((event) => event.event === "activity").at(-1)?.data as
        | { totals: Totals }
        | undefined;
      return last !== undefined && last.totals.toolCalls.ok === 5001;
    });
    const [snapshot] = events;
    assert.equal(snapshot?.event, "snapshot");
    const first = snapshot?.data as { totals: Totals; upstreams: Array<{ server: string; state: string }> };
    assert.deepEqual(
      first.upstreams.map((upstream) => [upstream.server, upstream.state]),
      [["scripted", "ready"]],
    );
    assert.equal(first.totals.executions.ok, 1);
    assert.equal(first.totals.toolCalls.ok, 1);
    assert.equal(first.totals.toolCalls.denied, 1);
    const activity = events.filter((event) => event.event === "activity");
    assert.ok(
      activity.length >= 1 && activity.length <= 3,
      `${activity.length} activity messages for the burst`,
    );
    const last = activity.at(-1)?.data as { recent: unknown[] };
    assert.ok(last.recent.length <= 100, "a message carries the newest items only");
  });

  test(`at most ${MAX_EVENT_STREAMS} streams at once; closing the server ends them`, async () => {
    const gateway = await gatewayWith();
    const running = await serveHttp(gateway, {
      host: "127.0.0.1",
      port: 0,
      allowUnauthenticatedLoopback: true,
    });
    const origin = new URL(running.url).origin;
    const open: Response[] = [];
    for (let index = 0; index < MAX_EVENT_STREAMS; index += 1) {
      const response = await fetch(`${origin}/dashboard/events`);
      assert.equal(response.status, 200, "anonymous loopback needs no login");
      open.push(response);
    }
    const refused = await fetch(`${origin}/dashboard/events`);
    assert.equal(refused.status, 503);
    await running.close();
    const ended = await Promise.all(
      open.map((response) =>
        response.text().then(
          () => true,
          () => true,
        ),
      ),
    );
    assert.equal(ended.length, MAX_EVENT_STREAMS);
  });

  test("the admin port serves the dashboard without a token, Host checked", async () => {
    const gateway = await gatewayWith();
    const admin = await serveAdmin(gateway, { host: "127.0.0.1", port: 0 });
    closers.push(() => admin.close());
    const page = await fetch(`${admin.url}/dashboard`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /ToolScript dashboard/);
    assert.equal(await statusWithHost(`${admin.url}/dashboard`, "evil.example:80"), 403);
    const events = await readEvents(await fetch(`${admin.url}/dashboard/events`), (seen) => seen.length > 0);
    assert.equal(events[0]?.event, "snapshot");
  });
});
