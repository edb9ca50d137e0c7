import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { BROWSER_FOLLOW_MJS, type OAuthFixture, startOAuthFixture } from "./helpers/oauth-fixture.ts";
import { cliArgs, tempDir } from "./helpers/servers.ts";

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI from source in `cwd`; async, so the fixture and the browser run meanwhile. */
function cli(cwd: string, env: Record<string, string>, ...args: string[]): Promise<Result> {
  const base = { ...process.env };
  for (const name of ["NO_COLOR", "FORCE_COLOR", "TOOLSCRIPT_VAULT_KEY", "CI", "BROWSER"]) delete base[name];
  const child = spawn(process.execPath, cliArgs(...args), { cwd, env: { ...base, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) => {
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const WHOAMI = "return await tools.secure.whoami({});";

describe("OAuth upstreams (the SDK's demo authorization server, a real browser stand-in)", () => {
  let fixture: OAuthFixture;
  const dir = tempDir("oauth");
  const browserLog = join(dir.path, "browser.log");
  const env = {
    BROWSER: `${process.execPath} ${BROWSER_FOLLOW_MJS}`,
    TOOLSCRIPT_TEST_BROWSER_LOG: browserLog,
  };

  before(async () => {
    // 30 s tokens: under the gateway's refresh margin, so every later process refreshes before use.
    fixture = await startOAuthFixture({ tokenTtlS: 30 });
    writeFileSync(
      join(dir.path, "toolscript.config.json"),
      JSON.stringify({
        mcpServers: { secure: { url: fixture.mcpUrl } },
        toolscript: { storage: { dir: join(dir.path, "data") }, upstream: { loginTimeoutMs: 30_000 } },
      }),
    );
    writeFileSync(join(dir.path, "whoami.ts"), WHOAMI);
  });

  after(async () => {
    await fixture?.stop();
    dir.remove();
  });

  it("toolscript run logs in through the browser, registers once, and calls the tool with the token", async () => {
    const run = await cli(dir.path, env, "run", "whoami.ts", "--no-typecheck");
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /clientId/);
    const stats = await fixture.stats();
    assert.equal(stats.registrations, 1);
    assert.equal(stats.authorizations, 1);
    assert.equal(stats.codeExchanges, 1);
    // RFC 8707: the token is bound to the MCP endpoint; PKCE S256 on the authorization URL.
    assert.equal(stats.lastAuthorization?.resource, fixture.mcpUrl);
    const visited = readFileSync(browserLog, "utf8");
    assert.match(visited, /code_challenge_method=S256/);
    assert.match(visited, /redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback/);
  });

  it("a later process refreshes the stored token instead of asking again (refresh across a restart)", async () => {
    const run = await cli(dir.path, env, "run", "whoami.ts", "--no-typecheck");
    assert.equal(run.code, 0, run.stderr);
    const stats = await fixture.stats();
    assert.equal(stats.authorizations, 1, "no second login");
    assert.ok(stats.refreshes >= 1, `refreshes: ${stats.refreshes}`);
  });

  it("a revoked access token is refreshed on the server's 401 and the call goes through", async () => {
    const before = await fixture.stats();
    await fixture.revokeAccessTokens();
    const run = await cli(dir.path, { ...env, BROWSER: "false" }, "run", "whoami.ts", "--no-typecheck");
    assert.equal(run.code, 0, run.stderr);
    const stats = await fixture.stats();
    assert.equal(stats.authorizations, before.authorizations);
    assert.ok(stats.refreshes > before.refreshes);
  });

  it("tokens are sealed in the store: the database never holds them in clear", async () => {
    const data = join(dir.path, "data");
    const files = readdirSync(data);
    assert.ok(files.includes("credentials.key"), files.join(", "));
    const status = await cli(dir.path, env, "auth", "status", "--json");
    assert.equal(status.code, 0, status.stderr);
    const [entry] = JSON.parse(status.stdout) as Array<{ server: string; state: string; issuer?: string }>;
    assert.equal(entry?.server, "secure");
    assert.equal(entry?.state, "logged in");
    for (const file of files.filter((name) => name.endsWith(".db") || name.includes("sqlite"))) {
      const bytes = readFileSync(join(data, file));
      assert.ok(!bytes.includes("refresh_token"), `${file} holds a token field in clear`);
    }
  });

  it("auth logout forgets the tokens; without a browser the next run says how to log in", async () => {
    const logout = await cli(dir.path, env, "auth", "logout", "secure");
    assert.equal(logout.code, 0, logout.stderr);
    assert.match(logout.stderr, /logged out of secure/);
    const status = await cli(dir.path, env, "auth", "status", "--json");
    assert.equal((JSON.parse(status.stdout) as Array<{ state: string }>)[0]?.state, "needs login");
    const config = JSON.parse(readFileSync(join(dir.path, "toolscript.config.json"), "utf8"));
    config.toolscript.upstream.loginTimeoutMs = 2000;
    writeFileSync(join(dir.path, "short.json"), JSON.stringify(config));
    const run = await cli(
      dir.path,
      { BROWSER: "true" },
      "run",
      "whoami.ts",
      "--no-typecheck",
      "--config",
      "short.json",
    );
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /toolscript auth login secure/);
  });

  it("serve shows the server as needing a login and picks up one made by `toolscript auth login`", async () => {
    const config = JSON.parse(readFileSync(join(dir.path, "toolscript.config.json"), "utf8"));
    config.toolscript.upstream.loginTimeoutMs = 1500;
    writeFileSync(join(dir.path, "serve.json"), JSON.stringify(config));
    const base = { ...process.env };
    for (const name of ["NO_COLOR", "FORCE_COLOR", "TOOLSCRIPT_VAULT_KEY", "CI"]) delete base[name];
    // `true` as the browser: nobody approves, as on a headless machine.
    const serve = spawn(process.execPath, cliArgs("serve", "--config", "serve.json"), {
      cwd: dir.path,
      env: { ...base, BROWSER: "true" },
    });
    let stderr = "";
    const seen = (pattern: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not seen: ${pattern}\n${stderr}`)), 40_000);
        const check = () => {
          if (!pattern.test(stderr)) return;
          clearTimeout(timer);
          serve.stderr.off("data", check);
          resolve();
        };
        serve.stderr.on("data", check);
        check();
      });
    serve.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    try {
      await seen(/secure: needs login: run `toolscript auth login secure`/);
      const login = await cli(dir.path, env, "auth", "login", "secure");
      assert.equal(login.code, 0, login.stderr);
      assert.match(login.stderr, /secure: logged in/);
      await seen(/secure: ready, 2 tools/);
    } finally {
      serve.stdin.end();
      const exited = new Promise((resolve) => serve.once("exit", resolve));
      const timer = setTimeout(() => serve.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
  });
});
