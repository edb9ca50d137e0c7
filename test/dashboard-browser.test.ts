import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, mkdirSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { after, describe, test } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type Browser, chromium, type Page } from "playwright-core";
import { fixtureServerConfigs } from "./helpers/fixture-catalog.ts";
import { cliArgs, REPO_ROOT, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

// The dashboard as an operator sees it: the real CLI (`serve --http`, a token),
// executions through a stock MCP client, then the page in Debian's headless
// Chromium driven by playwright-core. The screenshot is kept in test-artifacts/.

const TOKEN = "dashboard-browser-token";
const SCREENSHOT = join(REPO_ROOT, "test-artifacts/dashboard.png");

/** The system Chromium: $TOOLSCRIPT_CHROMIUM, else `chromium` (Debian) or `chromium-browser` on PATH, else /usr/bin/chromium. */
function findChromium(): string | undefined {
  const candidates = process.env.TOOLSCRIPT_CHROMIUM
    ? [process.env.TOOLSCRIPT_CHROMIUM]
    : (process.env.PATH ?? "")
        .split(delimiter)
        .filter(Boolean)
        .flatMap((dir) => [join(dir, "chromium"), join(dir, "chromium-browser")])
        .concat("/usr/bin/chromium");
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** `toolscript serve --http 127.0.0.1:0`; resolves with the origin it prints. */
function startServe(config: string, cwd: string): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, cliArgs("serve", "--config", config, "--http", "127.0.0.1:0"), {
    cwd,
    env: { ...process.env, TOOLSCRIPT_HTTP_TOKEN: TOKEN },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`serve did not start in 60 s:\n${seen}`)), 60_000);
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      seen += chunk;
      const origin = /Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(seen)?.[1];
      if (origin) {
        clearTimeout(timer);
        resolve({ child, origin });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${seen}`));
    });
  });
}

/** Waits until /ready says every upstream is ready. */
async function untilReady(origin: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await fetch(`${origin}/ready`)).status !== 200) {
    if (Date.now() > deadline) throw new Error(`${origin}/ready never answered 200`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

async function execute(client: Client, code: string): Promise<{ isError: boolean; text: string }> {
  const result = await client.callTool({ name: "execute_code", arguments: { code } }, { timeout: 60_000 });
  const content = (result.content ?? []) as Array<{ text?: string }>;
  return { isError: result.isError === true, text: content.map((part) => part.text ?? "").join("\n") };
}

const text = (page: Page, id: string) => page.locator(`#${id}`).innerText();

/** What the page's predicate reads (the tests compile without the DOM's types). */
type PageGlobals = { document: { getElementById(id: string): { textContent: string | null } | null } };

/**
 * Waits (10 s at most) until element `id` reads `expected`: the page's own
 * updates, no reload. A function, not a string: the page's CSP forbids eval.
 */
async function untilText(page: Page, id: string, expected: string): Promise<void> {
  await page
    .waitForFunction(
      ([target, value]) =>
        (globalThis as unknown as PageGlobals).document.getElementById(target)?.textContent === value,
      [id, expected] as const,
      { timeout: 10_000 },
    )
    .catch(async (error: unknown) => {
      throw new Error(`#${id} reads "${await text(page, id)}", not "${expected}" (${String(error)})`);
    });
}

describe("dashboard in headless Chromium", () => {
  const dir = tempDir("dashboard-browser");
  after(() => dir.remove());

  test("serve --http: log in once, see servers and counts, watch them update live", {
    timeout: 170_000,
  }, async () => {
    const executablePath = findChromium();
    assert.ok(
      executablePath,
      "Chromium is missing: this test drives Debian's `chromium` (apt-get install -y chromium; .ci/run installs it) " +
        "through playwright-core; or set TOOLSCRIPT_CHROMIUM to a Chromium or Chrome binary",
    );
    const config = join(dir.path, "toolscript.config.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          scripted: { command: process.execPath, args: [SCRIPTED_JS] },
          ...fixtureServerConfigs(["notion"]),
        },
        toolscript: {
          storage: { dir: join(dir.path, "data") },
          policy: { deny: ["notion/API-delete-a-block", "scripted/fail"] },
        },
      }),
    );
    let child: ChildProcess | undefined;
    let client: Client | undefined;
    let browser: Browser | undefined;
    try {
      const served = await startServe(config, dir.path);
      child = served.child;
      const { origin } = served;
      await untilReady(origin);
      client = new Client({ name: "dashboard-browser", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
        }),
      );

      // 5 executions (one fails), 205 tool calls (a burst of 200), 2 denials.
      const programs = [
        "const rows = await tools.scripted.rows({ count: 400 }); return { rows: rows.length };",
        'await tools.notion.API_get_users({}); await tools.notion.API_post_search({ query: "roadmap" }); return "found";',
        "const all = await Promise.all(Array.from({ length: 200 }, (_, i) => tools.scripted.echo({ message: String(i) }))); return all.length;",
        'let refused = 0; try { await tools.notion.API_delete_a_block({ block_id: "b1" }); } catch { refused++; } try { await tools.scripted.fail({}); } catch { refused++; } return refused;',
      ];
      for (const code of programs) {
        const answer = await execute(client, code);
        assert.equal(answer.isError, false, answer.text);
      }
      assert.equal((await execute(client, 'throw new Error("<img src=x onerror=alert(1)>")')).isError, true);

      browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox"] });
      const context = await browser.newContext({ viewport: { width: 1440, height: 1080 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("dialog", (dialog) => {
        problems.push(`a dialog opened: ${dialog.message()}`);
        void dialog.dismiss();
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error" && !/favicon/.test(message.location().url))
          problems.push(`console: ${message.text()}`);
      });

      // Log in once: a 303 to the clean URL, the cookie out of reach of scripts.
      const landed = await page.goto(`${origin}/dashboard?token=${TOKEN}`);
      assert.equal(landed?.status(), 200);
      assert.equal(page.url(), `${origin}/dashboard`, "the token left the URL");
      assert.equal((await landed?.request().redirectedFrom()?.response())?.status(), 303);
      const [cookie] = (await context.cookies()).filter((one) => one.name === "toolscript_dashboard");
      assert.ok(cookie, "the session cookie is set");
      assert.equal(cookie.httpOnly, true);
      assert.equal(cookie.sameSite, "Strict");
      assert.equal(cookie.path, "/dashboard");
      assert.ok(!cookie.value.includes(TOKEN));
      assert.equal(await page.evaluate("document.cookie"), "", "HttpOnly: no script sees it");

      await untilText(page, "connection", "live");
      await untilText(page, "count-executions", "5");
      assert.equal(await text(page, "count-executions"), "5");
      assert.match(await text(page, "detail-executions"), /4 ok · 1 failed/);
      assert.equal(await text(page, "count-tool-calls"), "205");
      assert.equal(await text(page, "count-denials"), "2");
      assert.equal(await text(page, "count-upstreams"), "2 / 2");
      assert.notEqual(await text(page, "count-kept-out"), "0", "the rows stayed in the sandbox");
      const upstreams = await page.locator("#upstreams tbody tr").allInnerTexts();
      const row = (server: string) => upstreams.find((line) => line.startsWith(server)) ?? "";
      assert.match(row("scripted"), /^scripted\s+ready\s+stdio\s+\d+\s+0\s+202\s+0\s+1\b/);
      assert.match(row("notion"), /^notion\s+ready\s+stdio\s+24\s+0\s+3\s+0\s+1\b/);
      const alerts = await page.locator("#alerts tbody").innerText();
      assert.match(alerts, /notion\/API-delete-a-block/);
      assert.match(alerts, /scripted\/fail/);
      assert.match(alerts, /policy\.denied/);
      assert.match(await page.locator("#recent tbody").innerText(), /execution \(/);
      assert.equal(
        (await page.locator("#chart-outcomes rect").count()) > 0,
        true,
        "the outcome bars are drawn",
      );
      assert.equal(await page.locator("#chart-tokens path.tokens-line").count(), 1);
      mkdirSync(join(REPO_ROOT, "test-artifacts"), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });

      // Live: one more execution shows up without a reload.
      await page.evaluate("window.stayed = true");
      assert.equal(
        (await execute(client, 'await tools.scripted.echo({ message: "live" }); return 1;')).isError,
        false,
      );
      await untilText(page, "count-executions", "6");
      assert.equal(await text(page, "count-tool-calls"), "206");
      assert.equal(await page.evaluate("window.stayed"), true, "no reload");
      assert.deepEqual(problems, []);

      // Without the cookie: the login page (401); a wrong token: 401 naming it.
      const stranger = await browser.newContext();
      const anonymous = await stranger.newPage();
      const refused = await anonymous.goto(`${origin}/dashboard`);
      assert.equal(refused?.status(), 401);
      assert.match(await anonymous.locator("#login-why").innerText(), /not logged in/);
      const wrong = await anonymous.goto(`${origin}/dashboard?token=not-the-token`);
      assert.equal(wrong?.status(), 401);
      assert.match(await anonymous.locator("#login-why").innerText(), /wrong token/);
      assert.equal((await stranger.cookies()).length, 0);
      await stranger.close();
    } finally {
      await browser?.close().catch(() => {});
      await client?.close().catch(() => {});
      if (child) await stop(child);
    }
  });
});
