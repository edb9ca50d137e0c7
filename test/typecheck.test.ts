import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Gateway } from "../src/gateway/gateway.ts";
import { openMemorySharedStore } from "../src/store/sqlite-shared-store.ts";
import { EVERYTHING_JS, SCRIPTED_JS } from "./helpers/servers.ts";

// Programs are type-checked against the real servers' declarations before anything runs.
describe("type-checking programs (server-everything, scripted)", () => {
  let gateway: Gateway;
  const echoes = async (): Promise<number> =>
    ((await gateway.execute("return await tools.scripted.call_log({});")).result as string[]).filter(
      (name) => name === "echo",
    ).length;

  before(async () => {
    gateway = new Gateway({
      config: {
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING_JS, "stdio"] },
          scripted: { command: process.execPath, args: [SCRIPTED_JS] },
        },
        toolscript: { sandbox: { timeoutMs: 5000, memoryMb: 64 }, privacy: { pii: false } },
      },
      store: openMemorySharedStore(),
    });
    await gateway.start();
  });
  after(() => gateway.close());

  test("a wrong argument type: kind `type` at its line and column, and the tool call before it never ran", async () => {
    const before = await echoes();
    const response = await gateway.execute(
      'await tools.scripted.echo({ message: "first" });\nconst sum = await tools.everything["get-sum"]({ a: 1, b: "2" });\nreturn sum;',
    );
    assert.equal(response.error?.kind, "type", JSON.stringify(response.error));
    assert.deepEqual([response.error?.line, response.error?.column], [2, 55]);
    assert.match(response.error?.message ?? "", /Type 'string' is not assignable to type 'number'/);
    assert.equal(response.toolCalls, 0);
    assert.equal(await echoes(), before, "echo never reached the server");
  });

  test("an unknown tool and a misspelled argument are type errors, nothing runs", async () => {
    const unknown = await gateway.execute(
      'await tools.scripted.echo({ message: "x" });\nawait tools.everything.get_summ({ a: 1, b: 2 });',
    );
    assert.equal(unknown.error?.kind, "type");
    assert.deepEqual([unknown.error?.line, unknown.error?.column], [2, 24]);
    assert.match(
      unknown.error?.message ?? "",
      /Property 'get_summ' does not exist on type 'tools\.everything'/,
    );
    const misspelled = await gateway.execute('return await tools.scripted.echo({ mesage: "x" });');
    assert.equal(misspelled.error?.kind, "type");
    assert.deepEqual([misspelled.error?.line, misspelled.error?.column], [1, 36]);
    assert.equal(misspelled.toolCalls, 0);
  });

  test('a correct program runs; tools.everything["get-sum"] type-checks and answers', async () => {
    const response = await gateway.execute(
      'const byOriginal = await tools.everything["get-sum"]({ a: 2, b: 3 });\nconst byId = await tools.everything.get_sum({ a: 2, b: 3 });\nreturn [byOriginal, byId];',
    );
    assert.equal(response.error, undefined, JSON.stringify(response.error));
    const [byOriginal, byId] = response.result as unknown[];
    assert.match(JSON.stringify(byOriginal), /5/);
    assert.deepEqual(byOriginal, byId);
  });

  test("typecheck: false, or JavaScript, runs unchecked", async () => {
    const code = "return await tools.scripted.echo({ message: 42 });";
    const unchecked = await gateway.execute({ code, typecheck: false });
    assert.equal(unchecked.error?.name, "ValidationError");
    const javascript = await gateway.execute({ code, language: "javascript" });
    assert.equal(javascript.error?.name, "ValidationError");
  });

  test('save_skill accepts a skill calling tools.everything["get-sum"]; a program importing it type-checks', async () => {
    const saved = await gateway.skills.save({
      name: "adder",
      description: "Adds two numbers with server-everything.",
      code: 'export async function add(a: number, b: number): Promise<unknown> {\n  return tools.everything["get-sum"]({ a, b });\n}\n',
    });
    assert.deepEqual(saved.exports, ["add"]);
    const response = await gateway.execute('import { add } from "skills/adder";\nreturn await add(20, 22);');
    assert.equal(response.error, undefined, JSON.stringify(response.error));
    assert.match(JSON.stringify(response.result), /42/);
    const wrong = await gateway.execute('import { add } from "skills/adder";\nreturn await add(20, "22");');
    assert.equal(wrong.error?.kind, "type");
    assert.deepEqual([wrong.error?.line, wrong.error?.column], [2, 22]);
  });
});
