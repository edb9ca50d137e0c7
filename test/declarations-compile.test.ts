import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import ts from "typescript";
import { Catalog } from "../src/catalog/catalog.ts";
import { renderTree } from "../src/catalog/declaration/tree.ts";
import { assignIdentifiers, buildCatalogTools } from "../src/catalog/naming.ts";
import type { CatalogTool, ToolDefinition } from "../src/catalog/types.ts";
import { UpstreamManager } from "../src/upstream/manager.ts";
import { EVERYTHING_JS, FILESYSTEM_JS, MEMORY_JS, stdioServer } from "./helpers/servers.ts";

interface FixtureTool extends ToolDefinition {
  server: string;
}

const fixture = JSON.parse(readFileSync(new URL("./fixtures/catalog.json", import.meta.url), "utf8")) as {
  tools: FixtureTool[];
};

function catalogFromFixture(): CatalogTool[] {
  const byServer = new Map<string, ToolDefinition[]>();
  for (const { server, ...definition } of fixture.tools) {
    const list = byServer.get(server);
    if (list) list.push(definition);
    else byServer.set(server, [definition]);
  }
  const serverIds = assignIdentifiers([...byServer.keys()]);
  return [...byServer].flatMap(([server, defs]) => buildCatalogTools(server, serverIds.get(server)!, defs));
}

/** Synthetic tools that exercise every construct of the generator, including the awkward ones. */
const EDGE_TOOLS: ToolDefinition[] = [
  {
    name: "get-sum",
    description: "Adds */ numbers",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
    outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
  },
  { name: "delete", inputSchema: { type: "object", properties: {}, additionalProperties: false } },
  { name: "__proto__", inputSchema: {} },
  { name: "then", inputSchema: { type: "object", additionalProperties: { type: "string" } } },
  { name: "2fa", inputSchema: { not: {} } },
  {
    name: "shapes",
    inputSchema: {
      type: "object",
      properties: {
        "content-type": { type: "string", nullable: true },
        tuple: {
          type: "array",
          prefixItems: [{ type: "string" }, { type: ["number", "null"] }],
          minItems: 1,
        },
        old: { type: "array", items: [{ type: "string" }], additionalItems: { type: "boolean" } },
        mixed: { enum: ["a", 1, true, null, { k: [1] }] },
        map: {
          type: "object",
          properties: { a: { type: "number" } },
          additionalProperties: { type: "number" },
        },
        conflict: {
          type: "object",
          properties: { a: { type: "string" } },
          patternProperties: { "^x": { type: "number" } },
        },
        both: { allOf: [{ anyOf: [{ type: "string" }, { type: "number" }] }, { type: "number" }] },
        never: false,
      },
      required: ["never"],
    },
  },
  {
    name: "recursive",
    inputSchema: {
      type: "object",
      properties: { tree: { $ref: "#/$defs/node" }, json: { $ref: "#/definitions/json" }, up: { $ref: "#" } },
      $defs: {
        node: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/node" } } } },
        a: { anyOf: [{ $ref: "#/$defs/b" }, { type: "string" }] },
        b: {
          anyOf: [{ $ref: "#/$defs/a" }, { type: "object", additionalProperties: { $ref: "#/$defs/a" } }],
        },
      },
      definitions: {
        json: {
          anyOf: [
            { type: ["string", "number", "boolean", "null"] },
            { type: "array", items: { $ref: "#/definitions/json" } },
            { type: "object", additionalProperties: { $ref: "#/definitions/json" } },
          ],
        },
      },
      anyOf: [{ properties: { loop: { $ref: "#/$defs/a" } } }],
    },
    outputSchema: { anyOf: [{ $ref: "#" }, { type: "object", properties: { next: { $ref: "#" } } }] },
  },
];

const USAGE = `
export async function main(): Promise<string> {
  const file = await tools.filesystem.read_file({ path: "x", tail: 3 });
  const text: string = file.content;
  const dirs = await tools.filesystem.list_allowed_directories();
  const status = await tools.git_cyanheads.git_status({ path: "." });
  const clean: boolean = status.isClean;
  const sum: number = (await tools.edge_cases.get_sum({ a: 1, b: 2 })).sum;
  await tools.edge_cases.delete_();
  await tools.edge_cases.then_({ any: "string" });
  return text + String(dirs.content) + String(clean) + String(sum);
}
`;

const WRONG_ARGUMENT = `
export async function main(): Promise<void> {
  await tools.filesystem.read_file({ path: 1 });
}
`;

const MISSING_TOOL = `
export async function main(): Promise<void> {
  await tools.filesystem.no_such_tool({});
}
`;

const BASE_OPTIONS: ts.CompilerOptions = {
  noEmit: true,
  strict: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  types: [],
  lib: ["lib.es2022.d.ts"],
  target: ts.ScriptTarget.ES2022,
};

const RESOLUTIONS: Array<[string, ts.CompilerOptions]> = [
  ["bundler", { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }],
  ["nodenext", { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }],
];

function formatDiagnostics(diagnostics: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => "/",
    getNewLine: () => "\n",
  });
}

describe("generated declarations of the fixture catalog", () => {
  const tools = catalogFromFixture();
  const edgeTools = buildCatalogTools("edge-cases", "edge_cases", EDGE_TOOLS);
  const tree = renderTree([...tools, ...edgeTools]);
  let dir = "";
  const declarationFiles: string[] = [];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "toolscript-decl-"));
    for (const [path, content] of tree) {
      const file = join(dir, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
      declarationFiles.push(file);
    }
    writeFileSync(join(dir, "usage.ts"), USAGE);
    writeFileSync(join(dir, "wrong-argument.ts"), WRONG_ARGUMENT);
    writeFileSync(join(dir, "missing-tool.ts"), MISSING_TOOL);
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  test("every tool of the fixture gets a declaration file", () => {
    assert.equal(fixture.tools.length, 304);
    assert.equal(tools.length, 304);
    for (const tool of tools) {
      const content = tree.get(`servers/${tool.serverId}/${tool.toolId}.d.ts`);
      assert.ok(content, `no declaration for ${tool.path}`);
      assert.ok(content.includes(`export declare function ${tool.toolId}(`), tool.path);
    }
    const serverIds = new Set(tools.map((tool) => tool.serverId));
    assert.equal(serverIds.size, 24);
    assert.equal(tree.size, 1 + serverIds.size + 304 + 1 + EDGE_TOOLS.length);
  });

  test("identifiers are valid and unique per server; names shared by servers stay apart", () => {
    const byServer = new Map<string, Set<string>>();
    for (const tool of tools) {
      assert.match(tool.toolId, /^[A-Za-z_$][A-Za-z0-9_$]*$/);
      assert.equal(tool.path, `tools.${tool.serverId}.${tool.toolId}`);
      const ids = byServer.get(tool.serverId) ?? new Set();
      assert.ok(!ids.has(tool.toolId), `duplicate ${tool.path}`);
      ids.add(tool.toolId);
      byServer.set(tool.serverId, ids);
    }
    const readFile = tools.filter((tool) => tool.tool === "read_file").map((tool) => tool.path);
    assert.ok(readFile.length > 1);
    assert.equal(new Set(readFile).size, readFile.length);
  });

  for (const [label, resolution] of RESOLUTIONS) {
    test(`the tree and a program using it compile cleanly (${label})`, () => {
      const options = { ...BASE_OPTIONS, ...resolution };
      const program = ts.createProgram([...declarationFiles, join(dir, "usage.ts")], options);
      const diagnostics = ts.getPreEmitDiagnostics(program);
      assert.equal(diagnostics.length, 0, formatDiagnostics(diagnostics));
    });
  }

  test("a wrong argument type and a missing tool are type errors", () => {
    const options = { ...BASE_OPTIONS, ...RESOLUTIONS[0]![1] };
    for (const [file, code] of [
      ["wrong-argument.ts", 2322],
      ["missing-tool.ts", 2339],
    ] as const) {
      const program = ts.createProgram([...declarationFiles, join(dir, file)], options);
      const diagnostics = ts.getPreEmitDiagnostics(program);
      assert.ok(diagnostics.length > 0, `${file} compiled without errors`);
      for (const diagnostic of diagnostics) assert.equal(diagnostic.file?.fileName, join(dir, file));
      assert.ok(
        diagnostics.some((d) => d.code === code),
        formatDiagnostics(diagnostics),
      );
    }
  });
});

describe("generated declarations of live reference servers", () => {
  test("every tool of server-everything, -filesystem and -memory compiles", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "toolscript-live-decl-"));
    const manager = new UpstreamManager([
      stdioServer("everything", EVERYTHING_JS, ["stdio"]),
      stdioServer("filesystem", FILESYSTEM_JS, [scratch]),
      stdioServer("memory", MEMORY_JS, [], { MEMORY_FILE_PATH: join(scratch, "memory.jsonl") }),
    ]);
    try {
      const statuses = await manager.start();
      assert.ok(
        statuses.every((status) => status.state === "ready"),
        JSON.stringify(statuses),
      );
      const catalog = new Catalog(manager.serverNames);
      for (const [server, definitions] of manager.tools()) catalog.setServerTools(server, definitions);
      const tools = catalog.tools();
      assert.ok(tools.length >= 30, `only ${tools.length} tools`);
      const files: string[] = [];
      for (const [path, content] of renderTree(tools)) {
        const file = join(scratch, "tree", path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, content);
        files.push(file);
      }
      const program = ts.createProgram(files, { ...BASE_OPTIONS, ...RESOLUTIONS[0]![1] });
      const diagnostics = ts.getPreEmitDiagnostics(program);
      assert.equal(diagnostics.length, 0, formatDiagnostics(diagnostics));
    } finally {
      await manager.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
