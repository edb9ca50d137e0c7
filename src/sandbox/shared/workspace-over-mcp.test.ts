import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { execute } from "../../../test/helpers/mcp-client.ts";
import { tempDir } from "../../../test/helpers/servers.ts";
import { Gateway } from "../../gateway/gateway.ts";
import { createMcpServer } from "../../server/create-mcp-server.ts";
import { DEFAULT_MAX_FILE_BYTES } from "../../session/quotas.ts";

describe("the workspace global over MCP", () => {
  const dir = tempDir("workspace-mcp");
  let gateway: Gateway;
  let client: Client;

  async function connect(): Promise<void> {
    gateway = new Gateway({
      config: { mcpServers: {}, toolscript: { storage: { dir: `${dir.path}/store` } } },
    });
    await gateway.start();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(gateway).connect(serverSide);
    client = new Client({ name: "workspace-test", version: "1" });
    await client.connect(clientSide);
  }

  before(connect);
  after(async () => {
    await client.close();
    await gateway.close();
    dir.remove();
  });

  test("writes, reads, lists and removes files, across executions and a restart", async () => {
    const written = await execute(
      client,
      [
        'const info = await workspace.writeFile("notes/today.md", "# héllo");',
        'await workspace.writeFile("notes/old.md", "old");',
        'await workspace.writeFile("top.json", JSON.stringify({ n: 1 }));',
        "return info;",
      ].join("\n"),
      { session: "alice" },
    );
    assert.equal(written.isError, false, written.text);
    assert.deepEqual((written.structured.result as { path: string; size: number }).path, "notes/today.md");
    assert.equal((written.structured.result as { size: number }).size, 8);
    await client.close();
    await gateway.close();
    await connect();
    const read = await execute(
      client,
      [
        'const text = await workspace.readFile("notes/today.md");',
        'const json = JSON.parse(await workspace.readFile("top.json", "utf8"));',
        'await workspace.remove("notes/old.md");',
        'const notes = (await workspace.list("notes")).map((f) => f.path);',
        "const all = (await workspace.list()).map((f) => f.path);",
        "return { text, json, notes, all };",
      ].join("\n"),
      { session: "alice" },
    );
    assert.deepEqual(read.structured.result, {
      text: "# héllo",
      json: { n: 1 },
      notes: ["notes/today.md"],
      all: ["notes/today.md", "top.json"],
    });
  });

  test("bytes round-trip as Uint8Array (every byte value, odd lengths)", async () => {
    const answer = await execute(
      client,
      [
        "const results = [];",
        "for (const length of [0, 1, 2, 3, 256, 1000]) {",
        "  const bytes = new Uint8Array(length);",
        "  for (let i = 0; i < length; i++) bytes[i] = (i * 7 + 3) % 256;",
        "  await workspace.writeFile('bin/' + length, bytes);",
        "  const back = await workspace.readFile('bin/' + length, 'bytes');",
        "  results.push(back instanceof Uint8Array && back.length === length && back.every((b, i) => b === bytes[i]));",
        "}",
        "const all = new Uint8Array(256).map((_, i) => i);",
        "await workspace.writeFile('bin/all', all.buffer);",
        "return [results, Array.from(await workspace.readFile('bin/all', 'bytes')).join(',') === Array.from(all).join(',')];",
      ].join("\n"),
      { session: "bytes" },
    );
    assert.equal(answer.isError, false, answer.text);
    assert.deepEqual(answer.structured.result, [[true, true, true, true, true, true], true]);
    const file = await gateway.store?.sessions.readFile("bytes", "bin/256");
    assert.deepEqual(
      Array.from(file?.bytes ?? []),
      Array.from({ length: 256 }, (_, i) => (i * 7 + 3) % 256),
    );
    const text = await execute(client, "await workspace.readFile('bin/all')", { session: "bytes" });
    assert.equal(text.structured.error?.name, "WorkspaceError");
    assert.match(
      text.structured.error?.message ?? "",
      /not UTF-8 text; read it with readFile\(path, "bytes"\)/,
    );
  });

  test("session B cannot read session A's files", async () => {
    await execute(client, 'await workspace.writeFile("secret.txt", "for A")', { session: "A" });
    const answer = await execute(
      client,
      [
        "try {",
        '  await workspace.readFile("secret.txt");',
        "} catch (error) {",
        "  return [error instanceof WorkspaceError, error.code, (await workspace.list()).length];",
        "}",
      ].join("\n"),
      { session: "B" },
    );
    assert.deepEqual(answer.structured.result, [true, "workspace.not_found", 0]);
  });

  test("path traversal and absolute paths are refused with clear errors", async () => {
    const answer = await execute(
      client,
      [
        "const out = [];",
        'for (const path of ["../A/secret.txt", "/etc/passwd", "a/../../b", "C:/x", "a\\\\b", "a//b", ""]) {',
        "  try { await workspace.writeFile(path, 'x'); out.push('written ' + path); }",
        "  catch (e) { out.push([e.name, e.code, e.message]); }",
        "}",
        "return out;",
      ].join("\n"),
      { session: "B" },
    );
    const results = answer.structured.result as Array<[string, string, string]>;
    assert.equal(results.length, 7);
    for (const [name, code] of results) {
      assert.equal(name, "WorkspaceError");
      assert.equal(code, "workspace.bad_path");
    }
    assert.match(
      results[0]?.[2] ?? "",
      /invalid workspace path "\.\.\/A\/secret\.txt": "\.\." segments are not allowed/,
    );
    assert.match(results[1]?.[2] ?? "", /absolute paths are not allowed/);
  });

  test("a file over the per-file quota is refused, naming the quota", async () => {
    const answer = await execute(
      client,
      `await workspace.writeFile("big.bin", new Uint8Array(${DEFAULT_MAX_FILE_BYTES + 1}));`,
      { session: "quota" },
    );
    assert.equal(answer.structured.error?.name, "WorkspaceError");
    assert.match(answer.structured.error?.message ?? "", /over the 16 MB per-file quota/);
    assert.equal((await gateway.store?.sessions.listFiles("quota"))?.length ?? 0, 0);
  });

  test("the full value of an answer cut to its budget is readable from code", async () => {
    const rows = "Array.from({ length: 400 }, (_, i) => ({ id: i, name: 'row ' + i, tags: ['a', 'b'] }))";
    const cut = await execute(client, rows, { session: "budget", maxTokens: 100 });
    const match = /`(results\/[^`]+\.json)`/.exec(cut.text);
    assert.ok(match?.[1], cut.text);
    const back = await execute(
      client,
      `const rows = JSON.parse(await workspace.readFile(${JSON.stringify(match[1])}));\n[rows.length, rows[399].name]`,
      { session: "budget" },
    );
    assert.deepEqual(back.structured.result, [400, "row 399"]);
  });
});
