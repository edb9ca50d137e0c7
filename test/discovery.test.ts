import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Gateway } from "../src/gateway/gateway.ts";
import { createMcpServer } from "../src/server/create-mcp-server.ts";
import { execute, textOf } from "./helpers/mcp-client.ts";
import { EVERYTHING_JS, FILESYSTEM_JS, MEMORY_JS, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

interface SearchAnswer {
  results: Array<{
    server: string;
    tool: string;
    path: string;
    description: string;
    score: number;
    matched: string[];
  }>;
}

describe("discovery meta-tools and resources over MCP", () => {
  const dir = tempDir("discovery");
  let gateway: Gateway;
  let client: Client;

  before(async () => {
    gateway = new Gateway({
      config: {
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING_JS, "stdio"] },
          filesystem: { command: process.execPath, args: [FILESYSTEM_JS, dir.path] },
          memory: {
            command: process.execPath,
            args: [MEMORY_JS],
            env: { MEMORY_FILE_PATH: `${dir.path}/m.jsonl` },
          },
          scripted: { command: process.execPath, args: [SCRIPTED_JS] },
        },
        toolscript: { upstream: { restart: { maxRetries: 0 } }, storage: { dir: `${dir.path}/store` } },
      },
    });
    await gateway.start();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(gateway).connect(serverSide);
    client = new Client({ name: "discovery", version: "1" });
    await client.connect(clientSide);
  });

  after(async () => {
    await client.close();
    await gateway.close();
    dir.remove();
  });

  test("without a model (none configured, no sampling) the gateway offers the meta-tools of DESIGN.md but solve_task", async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    assert.deepEqual(names, ["describe_tools", "execute_code", "list_tools", "save_skill", "search_tools"]);
  });

  test("search_tools ranks the right tools and returns original names", async () => {
    const result = await client.callTool({
      name: "search_tools",
      arguments: { query: "read the contents of a text file", limit: 5 },
    });
    const { results } = result.structuredContent as unknown as SearchAnswer;
    assert.equal(results.length, 5);
    assert.equal(results[0]?.server, "filesystem");
    assert.match(results[0]?.tool ?? "", /read/);
    for (const entry of results) {
      assert.equal(entry.path.startsWith("tools."), true);
      assert.equal(typeof entry.score, "number");
    }
    // The tool saying "Add two numbers" comes first. "add" reaches get-sum's "sum" by meaning only
    // (the WordNet extract keeps 8 relations per word, and "sum" is not among add's), so tools
    // named for adding things (`add_observations`, `add_tool`) rank near it.
    const sum = (
      await client.callTool({ name: "search_tools", arguments: { query: "add two numbers", limit: 10 } })
    ).structuredContent as unknown as SearchAnswer;
    assert.deepEqual([sum.results[0]?.server, sum.results[0]?.tool], ["scripted", "add"]);
    assert.ok(sum.results.some((entry) => entry.server === "everything" && entry.tool === "get-sum"));
    const text = textOf(
      await client.callTool({
        name: "search_tools",
        arguments: { query: "create entities in a knowledge graph", detail: "declaration" },
      }),
    );
    assert.match(text, /export declare function create_entities\(/);
  });

  test("search_tools asks for one capability per query and says which request words each result matched", async () => {
    const definition = (await client.listTools()).tools.find((tool) => tool.name === "search_tools");
    assert.match(definition?.description ?? "", /ONE capability in plain words/);
    assert.match(definition?.description ?? "", /retry with synonyms/);
    // Other programs call it by this schema.
    assert.deepEqual(Object.keys(definition?.inputSchema.properties ?? {}), [
      "query",
      "limit",
      "detail",
      "session",
    ]);
    assert.deepEqual(definition?.inputSchema.required, ["query"]);

    const result = await client.callTool({
      name: "search_tools",
      arguments: { query: "Read the contents of a text file, then zanzibar", limit: 5 },
    });
    const { results } = result.structuredContent as unknown as SearchAnswer;
    assert.equal(results[0]?.server, "filesystem");
    // As written ("Read"), in the request's order; "zanzibar" matched nothing.
    assert.deepEqual(
      results[0]?.matched.filter((word) => word === "Read" || word === "file"),
      ["Read", "file"],
    );
    assert.ok(results.every((entry) => Array.isArray(entry.matched) && !entry.matched.includes("zanzibar")));
    // The text notes a result that matched fewer words than the results together, and only those.
    const words = new Set(results.flatMap((entry) => entry.matched)).size;
    const lines = textOf(result).split("\n");
    assert.ok(results.some((entry) => entry.matched.length < words));
    results.forEach((entry, at) => {
      const note = entry.matched.length === 0 ? " (by meaning)" : ` (matched: ${entry.matched.join(", ")})`;
      assert.equal(lines[at]?.endsWith(note), entry.matched.length < words, lines[at]);
    });
  });

  test("searchTools() works from code", async () => {
    const answer = await execute(
      client,
      'const hits = await searchTools("knowledge graph relations", 3); return hits.map((h) => h.server)',
    );
    assert.equal(answer.isError, false, answer.text);
    assert.ok((answer.structured.result as string[]).includes("memory"));
    // An overlong query is refused with the reason, and the code can go on.
    const long = await execute(
      client,
      'try { await searchTools("find ".repeat(100000)); return "searched" } catch (error) { return String(error) }',
    );
    assert.equal(long.isError, false, long.text);
    assert.match(String(long.structured.result), /query is 500000 characters long; at most 2000 are read/);
  });

  test("the declarations are readable as resources", async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((resource) => resource.uri);
    assert.ok(uris.includes("toolscript://servers/filesystem/read_text_file.d.ts"));
    assert.ok(uris.includes("toolscript://servers/everything/index.d.ts"));
    assert.ok(uris.includes("toolscript://servers/filesystem/read_text_file.pyi"));
    assert.equal(uris.length, 2 * gateway.catalog.tools().length + gateway.catalog.servers().length);
    const read = await client.readResource({ uri: "toolscript://servers/everything/get_sum.d.ts" });
    const content = read.contents[0] as { text: string };
    assert.match(content.text, /export declare function get_sum\(input: GetSumInput\)/);
    const stub = await client.readResource({ uri: "toolscript://servers/everything/get_sum.pyi" });
    assert.equal(stub.contents[0]?.mimeType, "text/x-python");
    const stubText = (stub.contents[0] as { text: string }).text;
    assert.match(stubText, /^# tools\.everything\.get_sum \(also tools\.everything\["get-sum"\]\)$/m);
    assert.match(stubText, /^class GetSumInput\(TypedDict\):$/m);
    assert.match(stubText, /^ {4}async def get_sum\(self, \*, a: float, b: float\) -> Any:$/m);
    // By the original name too, as the .d.ts resource.
    const byOriginal = await client.readResource({ uri: "toolscript://servers/everything/get-sum.pyi" });
    assert.equal((byOriginal.contents[0] as { text: string }).text, stubText);
    await assert.rejects(
      client.readResource({ uri: "toolscript://servers/everything/nope.pyi" }),
      /no tool "nope"/,
    );
    await assert.rejects(
      client.readResource({ uri: "toolscript://servers/everything/nope.d.ts" }),
      /no tool "nope"/,
    );
    // An unknown server is a bad request (-32602 InvalidParams) naming the server, not an internal error.
    await assert.rejects(client.readResource({ uri: "toolscript://servers/nowhere/index.d.ts" }), (error) => {
      const { code, message } = error as { code?: unknown; message: string };
      assert.equal(code, -32602, message);
      assert.match(message, /no server "nowhere"/);
      return true;
    });
  });

  test("describe_tools answers Python stubs with language python, TypeScript by default", async () => {
    const python = textOf(
      await client.callTool({
        name: "describe_tools",
        arguments: {
          names: ["everything/get-sum", "filesystem/read_text_file", "everything/nope"],
          language: "python",
        },
      }),
    );
    assert.match(python, /async def get_sum\(self, \*, a: float, b: float\) -> Any:/);
    assert.match(python, /^class ReadTextFileInput\(TypedDict\):$/m);
    assert.match(python, /^# everything\/nope: no such tool/m);
    const typescript = textOf(
      await client.callTool({ name: "describe_tools", arguments: { names: ["everything/get-sum"] } }),
    );
    assert.match(typescript, /export declare function get_sum\(/);
    const tooMany = await client.callTool({
      name: "describe_tools",
      arguments: { names: Array.from({ length: 51 }, () => "everything/get-sum") },
    });
    assert.equal(tooMany.isError, true);
    assert.match(textOf(tooMany), /give 1 to 50 names \(got 51\)/);
  });

  test("describe_tools shows the resources and prompts globals, as TypeScript or as the Python stub", async () => {
    const describe = async (names: string[], language?: string) =>
      textOf(
        await client.callTool({
          name: "describe_tools",
          arguments: { names, ...(language && { language }) },
        }),
      );
    const python = await describe(["resources", "prompts", "everything/get-sum"], "python");
    // One stub declares both: shown once, beside the tool's stub.
    assert.equal(python.match(/^class Resources:$/gm)?.length, 1, python);
    assert.match(python, /^prompts: Prompts$/m);
    assert.match(python, /async def read\(self, uri: str, server: str \| None = None\) -> ResourceRead:/);
    assert.match(python, /async def get_sum\(self, \*, a: float, b: float\) -> Any:/);
    const typescript = await describe(["resources", "prompts"]);
    assert.match(typescript, /^declare const resources: \{$/m);
    assert.match(typescript, /^declare const prompts: \{$/m);
    assert.doesNotMatch(typescript, /class Resources/);
    // A global the Python driver has no stub for says so; an unknown name is still no tool.
    assert.match(await describe(["workspace"], "python"), /^# workspace: a global with no Python stub/m);
    const unknown = await client.callTool({ name: "describe_tools", arguments: { names: ["context2"] } });
    assert.equal(unknown.isError, true);
  });

  test("the index follows list_changed and a server going away", async () => {
    const before = (
      await client.callTool({ name: "search_tools", arguments: { query: "zanzibar quokka", limit: 3 } })
    ).structuredContent as unknown as SearchAnswer;
    assert.ok(!before.results.some((entry) => entry.tool === "zanzibar_quokka"));
    await execute(client, 'await tools.scripted.add_tool({ name: "zanzibar_quokka" })');
    let found = false;
    for (let tries = 0; tries < 40 && !found; tries++) {
      const answer = (
        await client.callTool({ name: "search_tools", arguments: { query: "zanzibar quokka", limit: 3 } })
      ).structuredContent as unknown as SearchAnswer;
      found = answer.results[0]?.tool === "zanzibar_quokka";
      if (!found) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.ok(found, "the new tool is found after list_changed");

    await execute(client, "await tools.scripted.crash({})");
    const gone = (
      await client.callTool({
        name: "search_tools",
        arguments: { query: "echo the message back", limit: 10 },
      })
    ).structuredContent as unknown as SearchAnswer;
    assert.ok(
      !gone.results.some((entry) => entry.server === "scripted"),
      "a dead server's tools are not offered",
    );
    const listing = textOf(await client.callTool({ name: "list_tools", arguments: {} }));
    assert.match(listing, /servers\/scripted\/ \(0 tools, failed\)/);
  });
});
