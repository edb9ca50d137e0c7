import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { execute, textOf } from "../../test/helpers/mcp-client.ts";
import { EVERYTHING_JS, tempDir } from "../../test/helpers/servers.ts";
import { Gateway } from "../gateway/gateway.ts";
import { createMcpServer } from "../server/create-mcp-server.ts";

interface Connected {
  gateway: Gateway;
  client: Client;
}

/** A gateway on `storageDir` with server-everything, and an MCP client connected to it in memory. */
async function connect(storageDir: string): Promise<Connected> {
  const gateway = new Gateway({
    config: {
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_JS, "stdio"] } },
      toolscript: { upstream: { restart: { maxRetries: 0 } }, storage: { dir: storageDir } },
    },
  });
  await gateway.start();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(gateway).connect(serverSide);
  const client = new Client({ name: "skills-test", version: "1" });
  await client.connect(clientSide);
  return { gateway, client };
}

async function disconnect({ gateway, client }: Connected): Promise<void> {
  await client.close();
  await gateway.close();
}

async function saveSkill(client: Client, args: Record<string, unknown>) {
  const result = await client.callTool({ name: "save_skill", arguments: args }, undefined, {
    timeout: 30_000,
  });
  return {
    text: textOf(result),
    isError: result.isError === true,
    structured: result.structuredContent as
      | { name: string; version: number; declaration: string; exports: string[]; imports: string[] }
      | undefined,
  };
}

const ADDER = [
  "/** Adds two numbers with the everything server's get-sum tool. */",
  "export async function add(a: number, b: number): Promise<number> {",
  "  const text = String(await tools.everything.get_sum({ a, b }));",
  "  return Number(/is (-?\\d+)/.exec(text)?.[1]);",
  "}",
].join("\n");

const STATS = [
  'import { add } from "skills/adder";',
  "",
  "/** Sums a list, one tool call per element. */",
  "export async function total(values: number[]): Promise<number> {",
  "  let sum = 0;",
  "  for (const value of values) sum = await add(sum, value);",
  "  return sum;",
  "}",
  "export default function label(n: number): string {",
  '  return "total=" + n;',
  "}",
].join("\n");

const PROGRAM = [
  'import label, { total } from "skills/stats";',
  'import * as adder from "skills/adder";',
  "const sum = await total([1, 2, 3, 4]);",
  "return [label(sum), await adder.add(40, 2)];",
].join("\n");

describe("skills over MCP", () => {
  const dir = tempDir("skills-mcp");
  const storage = `${dir.path}/store`;
  let connected: Connected;

  before(async () => {
    connected = await connect(storage);
  });

  after(async () => {
    await disconnect(connected);
    dir.remove();
  });

  test("save_skill returns the declaration derived from the code; a program imports skills that call tools and skills", async () => {
    const adder = await saveSkill(connected.client, {
      name: "adder",
      code: ADDER,
      description: "Add two numbers with a tool.",
    });
    assert.equal(adder.isError, false, adder.text);
    assert.equal(adder.structured?.version, 1);
    assert.match(
      adder.structured?.declaration ?? "",
      /export declare function add\(a: number, b: number\): Promise<number>;/,
    );
    assert.match(adder.text, /import \{ add \} from "skills\/adder"/);
    const stats = await saveSkill(connected.client, {
      name: "stats",
      code: STATS,
      description: "Total of a list of numbers, computed by repeated addition.",
    });
    assert.equal(stats.isError, false, stats.text);
    assert.deepEqual(stats.structured?.imports, ["adder"]);
    assert.deepEqual(stats.structured?.exports, ["total", "default"]);
    const answer = await execute(connected.client, PROGRAM);
    assert.equal(answer.isError, false, answer.text);
    assert.deepEqual(answer.structured.result, ["total=10", 42]);
    // Tool calls made inside skills go through the same bridge and are counted like the program's own.
    assert.equal(answer.structured.toolCalls, 5);
  });

  test("after a restart on the same storage, the same program gets the same result", async () => {
    await disconnect(connected);
    connected = await connect(storage);
    const answer = await execute(connected.client, PROGRAM);
    assert.equal(answer.isError, false, answer.text);
    assert.deepEqual(answer.structured.result, ["total=10", 42]);
  });

  test("saving again makes a new version; the old one stays readable", async () => {
    const again = await saveSkill(connected.client, {
      name: "adder",
      code: `${ADDER}\nexport const version = 2;\n`,
      description: "Add two numbers with a tool (v2).",
    });
    assert.equal(again.structured?.version, 2);
    const store = connected.gateway.store;
    assert.ok(store);
    assert.equal((await store.skills.get("adder", { version: 1 }))?.code, ADDER);
    assert.equal((await store.skills.versions("adder")).length, 2);
    const answer = await execute(connected.client, 'import { version } from "skills/adder";\nversion');
    assert.equal(answer.structured.result, 2);
  });

  test("a skill with a syntax error is refused with the line of the error", async () => {
    const broken = await saveSkill(connected.client, {
      name: "broken",
      code: "export function f(x: number) {\n  return x +;\n}\n",
      description: "Broken.",
    });
    assert.equal(broken.isError, true);
    assert.match(broken.text, /skill\.syntax/);
    assert.match(broken.text, /line 2, column \d+: Expression expected/);
    const top = await saveSkill(connected.client, {
      name: "toplevel",
      code: "export const x = 1;\nawait tools.everything.echo({ message: 'x' });\n",
      description: "Top-level await.",
    });
    assert.equal(top.isError, true);
    assert.match(top.text, /line 2/);
  });

  test("a skill with a type error against the tool declarations is refused with the line", async () => {
    const wrong = await saveSkill(connected.client, {
      name: "wrongargs",
      code: 'export async function f() {\n  const a = 1;\n  return tools.everything.get_sum({ a: "one", b: 2 });\n}\n',
      description: "Wrong argument type.",
    });
    assert.equal(wrong.isError, true);
    assert.match(wrong.text, /skill\.type/);
    assert.match(wrong.text, /line 3, column \d+: Type 'string' is not assignable to type 'number'/);
    const missing = await saveSkill(connected.client, {
      name: "missingtool",
      code: "export async function f() {\n  return tools.everything.no_such_tool({});\n}\n",
      description: "Missing tool.",
    });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /line 2/);
    const badImport = await saveSkill(connected.client, {
      name: "badimport",
      code: 'import { x } from "skills/nothing";\nexport const y = x;\n',
      description: "Imports a skill that is not there.",
    });
    assert.equal(badImport.isError, true);
    assert.match(badImport.text, /skill\.import.*\n?.*line 1/);
    assert.equal(await connected.gateway.store?.skills.get("wrongargs"), undefined);
  });

  test("a private skill is visible to its session only", async () => {
    const saved = await saveSkill(connected.client, {
      name: "secretsauce",
      code: "export function sauce(): string {\n  return 'alice only';\n}\n",
      description: "A private recipe for making sauce.",
      session: "alice",
      visibility: "private",
    });
    assert.equal(saved.isError, false, saved.text);
    const code = 'import { sauce } from "skills/secretsauce";\nsauce()';
    const mine = await execute(connected.client, code, { session: "alice" });
    assert.equal(mine.structured.result, "alice only");
    const theirs = await execute(connected.client, code, { session: "bob" });
    assert.equal(theirs.isError, true);
    assert.equal(theirs.structured.error?.name, "SkillError");
    assert.match(theirs.structured.error?.message ?? "", /No skill "secretsauce"/);
    assert.equal(theirs.structured.error?.line, 1);
    const search = async (session: string) =>
      (
        (
          await connected.client.callTool({
            name: "search_tools",
            arguments: { query: "private recipe for making sauce", session },
          })
        ).structuredContent as { results: Array<{ path: string }> }
      ).results.map((entry) => entry.path);
    assert.equal((await search("alice"))[0], "skills/secretsauce");
    assert.ok(!(await search("bob")).includes("skills/secretsauce"));
  });

  test("search_tools ranks a matching skill first, with server 'skills' and its import path", async () => {
    const saved = await saveSkill(connected.client, {
      name: "word-frequencies",
      code: [
        "/** Counts how often each word occurs in a text. */",
        "export function countWords(text: string): Record<string, number> {",
        "  const counts: Record<string, number> = {};",
        "  for (const word of text.toLowerCase().split(/\\W+/).filter(Boolean)) counts[word] = (counts[word] ?? 0) + 1;",
        "  return counts;",
        "}",
      ].join("\n"),
      description: "Count word frequencies in a text: how often each word occurs.",
    });
    assert.equal(saved.isError, false, saved.text);
    const result = await connected.client.callTool({
      name: "search_tools",
      arguments: { query: "count how often each word occurs in a text", limit: 5 },
    });
    const { results } = result.structuredContent as {
      results: Array<{ server: string; tool: string; path: string; score: number }>;
    };
    assert.deepEqual(
      { server: results[0]?.server, tool: results[0]?.tool, path: results[0]?.path },
      { server: "skills", tool: "word-frequencies", path: "skills/word-frequencies" },
    );
    assert.ok(results.length > 1, "tools are ranked too");
    assert.match(textOf(result), /^skills\/word-frequencies \(skill: import \{ countWords \}\)/);
    const fromCode = await execute(
      connected.client,
      'const hits = await searchTools("count how often each word occurs", 3);\nhits[0].path',
    );
    assert.equal(fromCode.structured.result, "skills/word-frequencies");
  });

  test("describe_tools, list_tools and the skills resource show the skill's declaration", async () => {
    const described = textOf(
      await connected.client.callTool({ name: "describe_tools", arguments: { names: ["skills/stats"] } }),
    );
    assert.match(described, /\/\/ skills\/stats \(version 1, shared/);
    assert.match(described, /export declare function total\(values: number\[\]\): Promise<number>;/);
    const listed = textOf(await connected.client.callTool({ name: "list_tools", arguments: {} }));
    assert.match(listed, /^servers\/everything\//m);
    assert.match(listed, /^skills\/ \(\d+ skills\)$/m);
    const skills = textOf(
      await connected.client.callTool({ name: "list_tools", arguments: { server: "skills" } }),
    );
    assert.match(skills, /^skills\/stats: Total of a list of numbers/m);
    const resources = await connected.client.listResources();
    assert.ok(resources.resources.some((resource) => resource.uri === "toolscript://skills/stats.ts"));
    const read = await connected.client.readResource({ uri: "toolscript://skills/stats.ts" });
    const text = (read.contents[0] as { text: string }).text;
    assert.match(text, /export declare function total/);
    assert.match(text, /import \{ add \} from "skills\/adder";/);
  });

  test("a Python skill: saved with language python, listed, described and read as Python; TypeScript cannot import it", async () => {
    const saved = await saveSkill(connected.client, {
      name: "py-stats",
      language: "python",
      code: 'def median(values: list[float]) -> float:\n    """Middle value."""\n    s = sorted(values)\n    return s[len(s) // 2]\n',
      description: "Median of a list, in Python.",
    });
    assert.equal(saved.isError, false, saved.text);
    assert.deepEqual(saved.structured?.exports, ["median"]);
    assert.equal((saved.structured as { language?: string } | undefined)?.language, "python");
    assert.match(saved.text, /^# from skills\.py_stats import median$/m);
    const described = textOf(
      await connected.client.callTool({
        name: "describe_tools",
        arguments: { names: ["skills/py-stats"], language: "python" },
      }),
    );
    assert.match(described, /^def median\(values: list\[float\]\) -> float:$/m);
    const skills = textOf(
      await connected.client.callTool({ name: "list_tools", arguments: { server: "skills" } }),
    );
    assert.match(skills, /^skills\/py-stats \(python\): Median of a list, in Python\.$/m);
    const resources = await connected.client.listResources();
    assert.ok(resources.resources.some((resource) => resource.uri === "toolscript://skills/py-stats.py"));
    const read = await connected.client.readResource({ uri: "toolscript://skills/py-stats.py" });
    assert.equal(read.contents[0]?.mimeType, "text/x-python");
    assert.match((read.contents[0] as { text: string }).text, /# ---- code ----\ndef median/);
    const program = await execute(
      connected.client,
      'import { median } from "skills/py-stats";\nreturn median([1, 2, 3]);',
    );
    assert.equal(program.isError, true);
    assert.match(program.text, /skills\/py-stats is a Python skill: TypeScript programs cannot import it/);
    const notPython = await saveSkill(connected.client, {
      name: "not-python",
      language: "python",
      code: "export const x = 1;",
      description: "Wrong language.",
    });
    assert.equal(notPython.isError, true);
    assert.match(notPython.text, /looks like TypeScript/);
  });
});
