import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CANARY_SECRET, writeGatewayConfig } from "./helpers/gateway-config.ts";
import { execute, textOf, untilServersSettled } from "./helpers/mcp-client.ts";
import { cliArgs, tempDir } from "./helpers/servers.ts";

describe("toolscript serve over stdio, driven by the SDK client", () => {
  const dir = tempDir("e2e-stdio");
  let client: Client;
  let transport: StdioClientTransport;

  before(async () => {
    const data = join(dir.path, "data");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(data);
    writeFileSync(join(data, "numbers.json"), JSON.stringify([3, 1, 4, 1, 5, 9, 2, 6]));
    writeFileSync(join(data, "notes.txt"), "alpha\nbeta\ngamma\n");
    const config = writeGatewayConfig(dir.path, data);
    transport = new StdioClientTransport({
      command: process.execPath,
      args: cliArgs("serve", "--config", config),
      stderr: "pipe",
      env: { ...process.env, GATEWAY_SECRET: "do-not-leak" } as Record<string, string>,
    });
    client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(transport);
    await untilServersSettled(client);
  });

  after(async () => {
    await client.close();
    dir.remove();
  });

  test("lists the meta-tools, with the servers in the execute_code description", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    assert.deepEqual(names, ["describe_tools", "execute_code", "list_tools", "save_skill", "search_tools"]);
    const description = tools.find((tool) => tool.name === "execute_code")?.description ?? "";
    assert.match(description, /^- everything: [A-Z][^#*`\n]* \(\d+\)$/m);
    assert.match(description, /^- filesystem[: ].*\(\d+\)$/m);
    assert.match(description, /^- scripted[: ].*\(\d+\)$/m);
  });

  test("a program combines everything and filesystem tools; only its result comes back", async () => {
    const answer = await execute(
      client,
      `
      const file = await tools.filesystem.read_text_file({ path: context.data + "/numbers.json" });
      const numbers: number[] = JSON.parse(file.content);
      const sum = await tools.everything["get-sum"]({ a: Math.max(...numbers), b: Math.min(...numbers) });
      console.log("read", numbers.length, "numbers");
      return { count: numbers.length, sum };
      `,
      { context: { data: join(dir.path, "data") } },
    );
    assert.equal(answer.isError, false, answer.text);
    assert.equal((answer.structured.result as { count: number }).count, 8);
    assert.match(JSON.stringify(answer.structured.result), /10/);
    assert.deepEqual(answer.structured.logs, [{ level: "log", message: "read 8 numbers" }]);
    assert.equal(answer.structured.toolCalls, 2);
  });

  test("a tool error is a ToolError the program can catch", async () => {
    const answer = await execute(
      client,
      `try { await tools.scripted.fail({}); return "no error"; }
       catch (error) { return { name: error.name, isToolError: error instanceof ToolError, message: error.message }; }`,
    );
    assert.deepEqual(answer.structured.result, {
      name: "ToolError",
      isToolError: true,
      message: "scripted/fail failed: this tool always fails",
    });
    const uncaught = await execute(client, "await tools.scripted.fail({});");
    assert.equal(uncaught.isError, true);
    assert.equal(uncaught.structured.error?.kind, "tool");
  });

  test("schema-invalid arguments are refused before the upstream sees them", async () => {
    // Type-checking stops it first; unchecked, the bridge's validation does.
    const typed = await execute(client, `await tools.scripted.echo({ message: 42 });`);
    assert.equal(typed.structured.error?.kind, "type");
    assert.deepEqual([typed.structured.error?.line, typed.structured.error?.column], [1, 29]);
    const answer = await execute(client, `await tools.scripted.echo({ message: 42 });`, { typecheck: false });
    assert.equal(answer.isError, true);
    assert.equal(answer.structured.error?.name, "ValidationError");
    assert.match(answer.structured.error?.message ?? "", /args\.message: must be string/);
    const log = await execute(client, "return await tools.scripted.call_log({});");
    assert.ok(Array.isArray(log.structured.result));
    assert.ok(!(log.structured.result as string[]).includes("echo"), "echo never reached the server");
  });

  test("a syntax error comes back with its line", async () => {
    const answer = await execute(client, "const a = 1;\nconst b = ;\nreturn a;");
    assert.equal(answer.isError, true);
    assert.equal(answer.structured.error?.kind, "syntax");
    assert.equal(answer.structured.error?.line, 2);
  });

  test("runaway code is stopped and the gateway keeps serving", async () => {
    for (const [code, kind] of [
      ["while (true) {}", "timeout"],
      ["await tools.scripted.echo({ message: 'x' }); while (true) {}", "timeout"],
      ["const hog = []; while (true) hog.push(new Array(1e6).fill(Math.random()));", "memory"],
    ] as const) {
      const answer = await execute(client, code, { timeoutMs: 1500 });
      assert.equal(answer.isError, true, code);
      assert.equal(answer.structured.error?.kind, kind, `${code}: ${answer.text}`);
      const next = await execute(client, "return 1 + 1");
      assert.equal(next.structured.result, 2);
    }
  });

  test("a timed-out execution cancels its in-flight upstream calls", async () => {
    const answer = await execute(
      client,
      "await Promise.all([tools.scripted.slow({ ms: 20000 }), tools.scripted.slow({ ms: 20000 })]);",
      {
        timeoutMs: 500,
      },
    );
    assert.equal(answer.structured.error?.kind, "timeout");
    let cancelled: unknown[] = [];
    for (let tries = 0; tries < 40 && cancelled.length < 2; tries++) {
      cancelled = (await execute(client, "return await tools.scripted.cancelled_calls({})")).structured
        .result as unknown[];
      if (cancelled.length < 2) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal(cancelled.length, 2, "the server saw notifications/cancelled for both calls");
  });

  test("escape attempts find nothing of the host", async () => {
    const answer = await execute(
      client,
      `const probes = {
         process: typeof process,
         require: typeof require,
         fetch: typeof fetch,
         ctor: (() => { try { return typeof this.constructor.constructor("return process")(); } catch (e) { return "threw"; } })(),
         toolsCtor: (() => { try { return typeof tools.constructor.constructor("return process")(); } catch (e) { return "threw"; } })(),
       };
       let dynamicImport = "no error";
       try { await import("node:fs"); } catch (error) { dynamicImport = "threw"; }
       return { ...probes, dynamicImport };`,
      // Hostile code skips the type check; the sandbox alone must hold.
      { typecheck: false },
    );
    const probes = answer.structured.result as Record<string, string>;
    assert.equal(probes.process, "undefined");
    assert.equal(probes.require, "undefined");
    assert.equal(probes.fetch, "undefined");
    assert.equal(probes.dynamicImport, "threw");
    // Reaching a Function constructor is fine; reaching the host's `process` is not.
    assert.ok(["undefined", "threw"].includes(probes.ctor ?? ""), probes.ctor);
    assert.ok(["undefined", "threw"].includes(probes.toolsCtor ?? ""), probes.toolsCtor);
    const leak = await execute(client, "return JSON.stringify(globalThis).includes('do-not-leak')");
    assert.equal(leak.structured.result, false);
  });

  test("configured secrets never leave the gateway, even when a tool hands them to code", async () => {
    const answer = await execute(
      client,
      `const secret = await tools.scripted.env({ name: "SCRIPTED_SECRET" });
       console.log("the secret is", secret);
       return { secret, length: secret.length };`,
    );
    assert.equal(answer.isError, false, answer.text);
    assert.ok(!answer.text.includes(CANARY_SECRET), answer.text);
    assert.ok(!JSON.stringify(answer.structured).includes(CANARY_SECRET));
    // Redacted before it entered the sandbox: code never held the secret, not even its length.
    assert.deepEqual(answer.structured.result, { secret: "[REDACTED]", length: "[REDACTED]".length });
    const thrown = await execute(
      client,
      'throw new Error(await tools.scripted.env({ name: "SCRIPTED_SECRET" }))',
    );
    assert.ok(!JSON.stringify(thrown.structured).includes(CANARY_SECRET));
    assert.match(thrown.structured.error?.message ?? "", /\[REDACTED\]/);
  });

  test("list_tools and describe_tools browse the catalog", async () => {
    const servers = textOf(await client.callTool({ name: "list_tools", arguments: {} }));
    assert.match(servers, /^servers\/filesystem\/ \(\d+ tools\)$/m);
    const scripted = textOf(await client.callTool({ name: "list_tools", arguments: { server: "scripted" } }));
    assert.match(scripted, /^tools\.scripted\.echo: Echo the message back\.$/m);
    const declarations = textOf(
      await client.callTool({
        name: "describe_tools",
        arguments: { names: ["scripted/add", "nope/nothing"] },
      }),
    );
    assert.match(declarations, /export declare function add\(/);
    assert.match(declarations, /nope\/nothing: no such tool/);
  });

  test("a malformed execute_code request gets a clear error", async () => {
    const result = await client.callTool({ name: "execute_code", arguments: { code: 42 } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /code/);
  });
});
