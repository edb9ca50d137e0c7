import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { formatStatuses } from "../src/cli/status.ts";
import { Gateway } from "../src/gateway/gateway.ts";
import { EVERYTHING_JS, FILESYSTEM_JS, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

const node = process.execPath;

function waitFor<T>(check: () => T | undefined | false, what: string, ms = 15_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const value = check();
      if (value !== undefined && value !== false) return resolve(value);
      if (Date.now() - started > ms) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 25);
    };
    tick();
  });
}

describe("upstream hardening", () => {
  const dirs: Array<{ remove(): void }> = [];
  const gateways: Gateway[] = [];
  const open = async (mcpServers: Record<string, unknown>, toolscript: Record<string, unknown> = {}) => {
    const storage = tempDir("hardening-store");
    dirs.push(storage);
    const gateway = new Gateway({
      config: { mcpServers, toolscript: { storage: { dir: storage.path }, ...toolscript } },
    });
    gateways.push(gateway);
    await gateway.start();
    return gateway;
  };
  after(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
    for (const dir of dirs) dir.remove();
  });

  test("an 11 MB file read through server-filesystem fails that call with a clear ToolError; the gateway keeps serving", async () => {
    const data = tempDir("hardening-fs");
    dirs.push(data);
    writeFileSync(join(data.path, "big.txt"), "0123456789abcde\n".repeat(11 * 65_536));
    writeFileSync(join(data.path, "small.txt"), "hello");
    const gateway = await open({ filesystem: { command: node, args: [FILESYSTEM_JS, data.path] } });
    const big = await gateway.execute({
      code: `try { await tools.filesystem.read_text_file({ path: context.dir + "/big.txt" }); return "read"; }
             catch (error) { return { name: error.name, code: error.code, message: error.message, data: error.data }; }`,
      context: { dir: data.path },
    });
    const caught = big.result as {
      name: string;
      code: string;
      message: string;
      data: Record<string, unknown>;
    };
    assert.equal(caught.name, "ToolError", JSON.stringify(big));
    assert.equal(caught.code, "tool.result_too_large");
    assert.match(
      caught.message,
      /server "filesystem" answered read_text_file with \d+\.\d MiB \(\d+ bytes\)/,
    );
    assert.match(caught.message, /over the limit of 10\.0 MiB \(10485760 bytes\)/);
    assert.equal(caught.data.limit, 10 * 1024 * 1024);
    const small = await gateway.execute({
      code: `return (await tools.filesystem.read_text_file({ path: context.dir + "/small.txt" })).content`,
      context: { dir: data.path },
    });
    assert.equal(small.result, "hello", JSON.stringify(small.error));
    assert.equal(gateway.statuses()[0]?.state, "ready");
    assert.equal(gateway.statuses()[0]?.restarts, 0, "the stream stayed usable: no restart was needed");
  });

  test("arguments over upstream.maxArgumentBytes are refused with LimitError before the server sees them", async () => {
    const gateway = await open({ everything: { command: node, args: [EVERYTHING_JS, "stdio"] } });
    const response = await gateway.execute(`
      const big = "x".repeat(11 * 1024 * 1024);
      const out = [];
      for (let i = 0; i < 6; i++) {
        try { await tools.everything.echo({ message: big }); out.push("sent"); }
        catch (error) { out.push(error.name + " " + error.code + " " + error.message); }
      }
      out.push(await tools.everything.echo({ message: "still here" }));
      return out;`);
    const out = response.result as string[];
    assert.equal(out.length, 7, JSON.stringify(response.error));
    for (const line of out.slice(0, 6)) {
      assert.match(
        line,
        /^LimitError limit\.argument_bytes the arguments of everything\/echo are 11534\d{3} bytes/,
      );
      assert.match(
        line,
        /over the limit of 1048576 bytes per call \(toolscript\.upstream\.maxArgumentBytes\)/,
      );
    }
    assert.match(JSON.stringify(out[6]), /still here/);
    const status = gateway.statuses()[0];
    assert.equal(status?.state, "ready");
    assert.equal(status?.restarts, 0);
  });

  test("upstream secrets are redacted before they enter the sandbox: reversed or as char codes they still never come out", async () => {
    const secret = "tok-9f8e7d6c5b4a";
    const gateway = await open({
      everything: { command: node, args: [EVERYTHING_JS, "stdio"], env: { SECRET_TOKEN: secret } },
    });
    const response = await gateway.execute(`
      const env = await tools.everything["get-env"]({});
      const value = String(env.SECRET_TOKEN);
      return {
        reversed: value.split("").reverse().join(""),
        spaced: value.split("").join(" "),
        codes: value.split("").map((c) => c.charCodeAt(0)),
        json: JSON.stringify(env).length > 0,
      };`);
    assert.equal(response.error, undefined, JSON.stringify(response.error));
    const result = response.result as { reversed: string; spaced: string; codes: number[] };
    const reversed = secret.split("").reverse().join("");
    const text = JSON.stringify(result);
    assert.ok(!text.includes(reversed), `reversed secret leaked: ${text}`);
    assert.ok(!result.spaced.replaceAll(" ", "").includes(secret), "spaced secret leaked");
    assert.notEqual(String.fromCharCode(...result.codes), secret, "secret leaked as char codes");
    assert.equal(String.fromCharCode(...result.codes), "[REDACTED]");
  });

  test("during a restart calls say which attempt it is; a failed server keeps being retried and says when", async () => {
    const gateway = await open(
      {
        scripted: { command: node, args: [SCRIPTED_JS] },
        broken: { command: node, args: [SCRIPTED_JS, "--exit-at-once", "3"] },
      },
      { upstream: { restart: { maxRetries: 2, initialDelayMs: 50, maxDelayMs: 400 } } },
    );
    // Long first delay for scripted only would need per-server settings; its restart takes 50 ms,
    // so the call is made in the same turn the crash is seen.
    const response = await gateway.execute(`
      try { await tools.scripted.crash({}); } catch (error) {}
      try { await tools.scripted.echo({ message: "hi" }); return "sent"; }
      catch (error) { return error.name + ": " + error.message; }`);
    assert.match(String(response.result), /^ToolError: server "scripted" is restarting \(attempt 1 of 2\)/);
    assert.doesNotMatch(String(response.result), /Unknown tool/);

    const broken = await waitFor(
      () => gateway.statuses().find((status) => status.server === "broken" && status.restarts >= 4),
      "the broken server to be retried past its budget",
    );
    assert.equal(broken.state, "failed");
    const failed = await waitFor(
      () => gateway.statuses().find((status) => status.server === "broken" && status.nextRetryAt),
      "a scheduled retry",
    );
    assert.ok(Date.parse(failed.nextRetryAt as string) > Date.now() - 1000);
    assert.match(formatStatuses([failed]), /broken .*failed: .*; retrying in \d+ s/);
    const call = await gateway.execute(`
      try { await tools.broken.echo({ message: "x" }); } catch (error) { return error.name + ": " + error.message; }`);
    assert.match(
      String(call.result),
      /^ToolError: server "broken" is (failed: .*; (retrying in \d+ s|trying again now)|restarting)/,
    );
    await waitFor(
      () => gateway.statuses().find((status) => status.server === "scripted" && status.state === "ready"),
      "scripted to come back",
    );
  });

  test("a call to a server still starting waits for it, then says it failed to start", async () => {
    const storage = tempDir("hardening-store");
    dirs.push(storage);
    const gateway = new Gateway({
      config: {
        mcpServers: {
          hung: { command: node, args: [SCRIPTED_JS, "--hang-init"] },
          late: { command: node, args: [SCRIPTED_JS, "--init-delay", "300"] },
        },
        toolscript: {
          storage: { dir: storage.path },
          upstream: {
            connectTimeoutMs: 5000,
            restart: { maxRetries: 3, initialDelayMs: 60_000, maxDelayMs: 60_000 },
          },
        },
      },
    });
    gateways.push(gateway);
    const statuses = await gateway.start({ waitForServers: false });
    assert.deepEqual(
      statuses.map((status) => status.state),
      ["connecting", "connecting"],
    );
    const late = await gateway.execute(`return await tools.late.echo({ message: "joined" })`);
    assert.equal(late.result, "joined", JSON.stringify(late.error));
    const hung = await gateway.execute(`
      try { await tools.hung.echo({ message: "x" }); return "sent"; }
      catch (error) { return error.name + ": " + error.message; }`);
    assert.match(
      String(hung.result),
      /^ToolError: server "hung" is restarting \(attempt 1 of 3\): no answer within 5000 ms/,
    );
  });
});
