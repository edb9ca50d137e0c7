import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { assignIdentifiers, buildCatalogTools } from "../../naming.ts";
import type { CatalogTool, ToolDefinition } from "../../types.ts";
import { isPythonName, pythonNames, toPythonName } from "./python-names.ts";
import { docstring } from "./python-text.ts";
import { pythonToolPath, renderPythonStub } from "./tool-stub.ts";

const lines = (...text: string[]): string => `${text.join("\n")}\n`;

function tools(server: string, definitions: ToolDefinition[]): CatalogTool[] {
  return buildCatalogTools(server, assignIdentifiers([server]).get(server)!, definitions);
}

function stub(definition: ToolDefinition, server = "srv"): string {
  const all = tools(server, [definition]);
  return renderPythonStub(all[0]!, { serverTools: all });
}

/**
 * Every problem `ast.parse` finds in the given sources, by label, from one python3 process
 * (the machine's python3: a test dependency only, the gateway never runs Python).
 */
function pythonSyntaxErrors(sources: Record<string, string>): Record<string, string> {
  const script = [
    "import ast, json, sys",
    "errors = {}",
    "for label, source in json.load(sys.stdin).items():",
    "    try:",
    "        ast.parse(source, filename=label)",
    "    except SyntaxError as error:",
    "        errors[label] = f'line {error.lineno}: {error.msg}'",
    "print(json.dumps(errors))",
  ].join("\n");
  const result = spawnSync("python3", ["-c", script], {
    input: JSON.stringify(sources),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(result.status, 0, `python3 failed: ${result.error?.message ?? result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, string>;
}

/** Synthetic tools for every construct, including the awkward ones. */
const EDGE_TOOLS: ToolDefinition[] = [
  {
    name: "get-sum",
    description: 'Adds numbers """ and \\ quotes "',
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
    outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
  },
  { name: "delete", inputSchema: { type: "object", properties: {}, additionalProperties: false } },
  { name: "from", inputSchema: {} },
  { name: "__proto__", inputSchema: { not: {} } },
  { name: "then", inputSchema: { type: "object", additionalProperties: { type: "string" } } },
  {
    name: "keys",
    description: "Line one\r\nline two\u0000\u2028end",
    inputSchema: {
      type: "object",
      properties: {
        from: { type: "integer", description: "a keyword" },
        "my-field": { type: "string", nullable: true },
        self: { type: "boolean" },
        "": { const: 1 },
      },
      required: ["from"],
    },
  },
  {
    name: "shapes",
    inputSchema: {
      type: "object",
      properties: {
        tuple: {
          type: "array",
          prefixItems: [{ type: "string" }, { type: ["number", "null"] }],
          minItems: 2,
          items: false,
        },
        open: { type: "array", items: [{ type: "string" }], additionalItems: { type: "boolean" } },
        mixed: { enum: ["a", 1, true, null, { k: [1] }, 1.5] },
        constant: { const: "x" },
        map: {
          type: "object",
          properties: { a: { type: "number" } },
          additionalProperties: { type: "number" },
        },
        dict: { type: "object", additionalProperties: { type: "integer" } },
        either: { anyOf: [{ type: "string" }, { type: "number" }, { type: "string" }] },
        one: { oneOf: [{ type: "object", properties: { x: { type: "string" } } }, { type: "null" }] },
        both: {
          allOf: [
            { properties: { a: { type: "string" } } },
            { properties: { b: { type: "number" } }, required: ["b"] },
          ],
        },
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
        loop: { $ref: "#/$defs/loop" },
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
    },
    outputSchema: {
      anyOf: [{ $ref: "#/$defs/loop" }, { type: "string" }],
      $defs: { loop: { $ref: "#/$defs/loop" } },
    },
  },
  {
    name: "union-input",
    inputSchema: {
      anyOf: [
        { type: "object", properties: { a: { type: "string" } } },
        { type: "object", properties: { b: { type: "string" } } },
      ],
    },
  },
];

describe("renderPythonStub", () => {
  test("server-everything's get-sum: TypedDict input, keyword signature in the server's class", () => {
    const getSum = tools("everything", [
      {
        name: "get-sum",
        title: "Get Sum Tool",
        description: "Returns the sum of two numbers",
        inputSchema: {
          type: "object",
          properties: {
            a: { type: "number", description: "First number" },
            b: { type: "number", description: "Second number" },
          },
          required: ["a", "b"],
          $schema: "http://json-schema.org/draft-07/schema#",
        },
        annotations: {
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
    ]);
    assert.equal(
      renderPythonStub(getSum[0]!, { serverTools: getSum }),
      lines(
        '# tools.everything.get_sum (also tools.everything["get-sum"])',
        "from typing import Any, TypedDict",
        "",
        "class GetSumInput(TypedDict):",
        "    a: float  # First number",
        "    b: float  # Second number",
        "",
        "class everything:",
        "    async def get_sum(self, *, a: float, b: float) -> Any:",
        '        """Returns the sum of two numbers @readonly"""',
        "        ...",
      ),
    );
  });

  test("optional properties, enums as Literal, output schema as the return type", () => {
    const text = stub({
      name: "find",
      inputSchema: {
        type: "object",
        properties: {
          mode: { enum: ["a", "b"], default: "a" },
          limit: { type: "integer", description: "At most\nthis many" },
        },
      },
      outputSchema: {
        type: "object",
        properties: {
          rows: {
            type: "array",
            items: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
          },
        },
        required: ["rows"],
      },
    });
    assert.equal(
      text,
      lines(
        "# tools.srv.find",
        "from typing import Literal, TypedDict",
        "",
        "class FindInput(TypedDict, total=False):",
        '    mode: Literal["a", "b"]  # @default "a"',
        "    # At most",
        "    # this many",
        "    limit: int",
        "",
        "class FindOutputRowsItem(TypedDict):",
        "    id: str",
        "",
        "class FindOutput(TypedDict):",
        "    rows: list[FindOutputRowsItem]",
        "",
        "class srv:",
        '    async def find(self, *, mode: Literal["a", "b"] = ..., limit: int = ...) -> FindOutput:',
        "        ...",
      ),
    );
  });

  test("names that cannot be keyword arguments: functional TypedDict, one dict argument", () => {
    const text = stub(EDGE_TOOLS.find((tool) => tool.name === "keys")!);
    assert.match(text, /^KeysInput = TypedDict\("KeysInput", \{$/m);
    assert.match(text, /^ {4}"from": int, {2}# a keyword$/m);
    assert.match(text, /^ {4}"my-field": NotRequired\[str \| None\],$/m);
    assert.match(text, /^ {4}"self": NotRequired\[bool\],$/m);
    assert.match(text, /async def keys\(self, input: KeysInput, \/\) -> Any:/);
    assert.match(text, /Takes one dict: some of its keys are not Python names\./);
  });

  test("tool and server names that are Python keywords get a trailing underscore; originals by subscript", () => {
    const all = tools("from", [
      { name: "from", inputSchema: {} },
      { name: "from_", inputSchema: {} },
    ]);
    assert.equal(pythonToolPath(all[0]!, all), "tools.from_.from_2");
    assert.equal(pythonToolPath(all[1]!, all), "tools.from_.from_");
    const text = renderPythonStub(all[0]!, { serverTools: all });
    assert.match(text, /^# tools\.from_\.from_2 \(also tools\["from"\]\["from"\]\)$/m);
    assert.match(text, /^class from_:$/m);
    assert.match(text, /async def from_2\(self\) -> Any:/);
  });

  test("unions, tuples, const, nullable, additionalProperties and allOf", () => {
    const text = stub(EDGE_TOOLS.find((tool) => tool.name === "shapes")!);
    assert.match(text, /tuple: NotRequired\[tuple\[str, float \| None\]\]/);
    assert.match(text, /open: NotRequired\[list\[str \| bool\]\]/);
    assert.match(text, /mixed: NotRequired\[Literal\["a", 1, True\] \| dict\[str, Any\] \| float \| None\]/);
    assert.match(text, /constant: NotRequired\[Literal\["x"\]\]/);
    assert.match(
      text,
      /class ShapesInputMap\(TypedDict, total=False\):\n {4}"""other keys: float"""\n {4}a: float/,
    );
    assert.match(text, /dict: NotRequired\[dict\[str, int\]\]/);
    assert.match(text, /either: NotRequired\[str \| float\]/);
    assert.match(text, /one: NotRequired\[ShapesInputOne \| None\]/);
    assert.match(text, /class ShapesInputBoth\(TypedDict\):\n {4}a: NotRequired\[str\]\n {4}b: float/);
    assert.match(text, /never: Never/);
  });

  test("$ref targets are declared once, recursion through classes and aliases, self-reference as Any", () => {
    const text = stub(EDGE_TOOLS.find((tool) => tool.name === "recursive")!);
    assert.match(text, /^class RecursiveNode\(TypedDict, total=False\):\n {4}kids: list\[RecursiveNode\]$/m);
    assert.match(
      text,
      /^RecursiveJson = str \| float \| bool \| list\[RecursiveJson\] \| dict\[str, RecursiveJson\] \| None$/m,
    );
    assert.match(text, /up: NotRequired\[RecursiveInput\]|up: RecursiveInput/);
    assert.match(text, /^RecursiveLoop = Any$/m);
    assert.match(text, /-> RecursiveLoop \| str:/);
  });

  test("docstrings cannot be closed by the description; control characters are dropped", () => {
    const texts = ['say """hi""""', 'end "', "a \\ b \\N{x} \\", '"""', '"'];
    const sources = Object.fromEntries(
      texts.map((text, i) => [`doc${i}`, `def f():\n${docstring([text], "    ").join("\n")}\n`]),
    );
    assert.deepEqual(pythonSyntaxErrors(sources), {});
    const script =
      "import ast, json, sys\nprint(json.dumps([ast.get_docstring(ast.parse(s).body[0], clean=False) for s in json.load(sys.stdin)]))";
    const read = spawnSync("python3", ["-c", script], {
      input: JSON.stringify(Object.values(sources)),
      encoding: "utf8",
    });
    assert.deepEqual(JSON.parse(read.stdout), texts);
    const text = stub(EDGE_TOOLS.find((tool) => tool.name === "keys")!);
    assert.ok(!text.includes("\u0000") && !text.includes("\u2028"), text);
  });

  test("Python names", () => {
    assert.equal(isPythonName("from"), false);
    assert.equal(isPythonName("my-field"), false);
    assert.equal(isPythonName("match"), true);
    assert.equal(isPythonName("café"), false);
    assert.equal(toPythonName("lambda"), "lambda_");
    assert.deepEqual(
      [...pythonNames(["is", "is_", "x"])],
      [
        ["is", "is_2"],
        ["is_", "is_"],
        ["x", "x"],
      ],
    );
  });
});

describe("Python stubs of the fixture catalog and the edge cases", () => {
  test("every stub is valid Python syntax (python3 ast.parse)", () => {
    const fixture = JSON.parse(
      readFileSync(new URL("../../../../test/fixtures/catalog.json", import.meta.url), "utf8"),
    ) as { tools: Array<ToolDefinition & { server: string }> };
    const byServer = new Map<string, ToolDefinition[]>();
    for (const { server, ...definition } of fixture.tools) {
      byServer.set(server, [...(byServer.get(server) ?? []), definition]);
    }
    const serverIds = assignIdentifiers([...byServer.keys()]);
    const catalog = [
      ...[...byServer].flatMap(([server, defs]) => buildCatalogTools(server, serverIds.get(server)!, defs)),
      ...buildCatalogTools("edge-cases", "edge_cases", EDGE_TOOLS),
    ];
    assert.equal(catalog.length, 304 + EDGE_TOOLS.length);
    const sources: Record<string, string> = {};
    for (const tool of catalog) {
      const serverTools = catalog.filter((entry) => entry.serverId === tool.serverId);
      const text = renderPythonStub(tool, { serverTools });
      assert.ok(
        text.includes(`async def ${pythonToolPath(tool, serverTools).split(".")[2]}(self`),
        tool.path,
      );
      sources[`${tool.server}/${tool.tool}`] = text;
    }
    assert.deepEqual(pythonSyntaxErrors(sources), {});
  });
});
