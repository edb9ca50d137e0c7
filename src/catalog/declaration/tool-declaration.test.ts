import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CatalogTool, ToolDefinition } from "../types.ts";
import { annotationTags, renderToolDeclaration } from "./tool-declaration.ts";

function tool(
  definition: ToolDefinition,
  ids: { server?: string; serverId?: string; toolId?: string } = {},
): CatalogTool {
  const server = ids.server ?? "srv";
  const serverId = ids.serverId ?? server;
  const toolId = ids.toolId ?? definition.name;
  return { server, serverId, tool: definition.name, toolId, path: `tools.${serverId}.${toolId}`, definition };
}

const lines = (...text: string[]): string => `${text.join("\n")}\n`;

describe("renderToolDeclaration", () => {
  test("input and output interfaces, property docs, hint tags", () => {
    const readFile = tool(
      {
        name: "read_file",
        title: "Read File (Deprecated)",
        description: "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.",
        inputSchema: {
          type: "object",
          properties: {
            path: { type: "string" },
            tail: { type: "number", description: "If provided, returns only the last N lines of the file" },
          },
          required: ["path"],
        },
        outputSchema: { type: "object", properties: { content: { type: "string" } }, required: ["content"] },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      { server: "filesystem" },
    );
    assert.equal(
      renderToolDeclaration(readFile),
      lines(
        "// tools.filesystem.read_file",
        "export interface ReadFileInput {",
        "  path: string;",
        "  /** If provided, returns only the last N lines of the file */",
        "  tail?: number;",
        "}",
        "export interface ReadFileOutput { content: string }",
        "/** Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead. @readonly */",
        "export declare function read_file(input: ReadFileInput): Promise<ReadFileOutput>;",
      ),
    );
  });

  test("original names when the identifiers differ; title when there is no description", () => {
    const getSum = tool(
      {
        name: "get-sum",
        title: "Sum",
        inputSchema: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
        annotations: { readOnlyHint: true, idempotentHint: true },
      },
      { server: "my-server", serverId: "my_server", toolId: "get_sum" },
    );
    assert.equal(
      renderToolDeclaration(getSum),
      lines(
        "// tools.my_server.get_sum",
        "export interface GetSumInput { a: number; b: number }",
        "/**",
        " * Sum @readonly",
        " * @original my-server/get-sum",
        " */",
        "export declare function get_sum(input: GetSumInput): Promise<unknown>;",
      ),
    );
  });

  test("a renamed server alone does not repeat the original names on every tool", () => {
    const status = tool(
      { name: "git_status", description: "Status.", inputSchema: { type: "object" } },
      { server: "git-cyanheads", serverId: "git_cyanheads" },
    );
    assert.equal(
      renderToolDeclaration(status),
      lines(
        "// tools.git_cyanheads.git_status",
        "/** Status. */",
        "export declare function git_status(input?: Record<string, unknown>): Promise<unknown>;",
      ),
    );
  });

  test("no properties: optional input; multi-line description with an escaped comment end", () => {
    const ping = tool({
      name: "ping",
      description: "Pings the server.\r\n\r\n\r\nNever writes */ anything.",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
    });
    assert.equal(
      renderToolDeclaration(ping),
      lines(
        "// tools.srv.ping",
        "/**",
        " * Pings the server.",
        " *",
        " * Never writes *\\/ anything.",
        " * @destructive @idempotent @openWorld",
        " */",
        "export declare function ping(input?: Record<string, never>): Promise<unknown>;",
      ),
    );
    assert.equal(
      renderToolDeclaration(tool({ name: "bare", inputSchema: {} })),
      lines(
        "// tools.srv.bare",
        "export declare function bare(input?: Record<string, unknown>): Promise<unknown>;",
      ),
    );
  });

  test("recursive $defs become named types prefixed by the tool; unused ones are left out", () => {
    const buildTree = tool({
      name: "build_tree",
      description: "Builds a tree.",
      inputSchema: {
        type: "object",
        properties: { root: { $ref: "#/$defs/node" } },
        required: ["root"],
        $defs: {
          node: {
            type: "object",
            description: "A tree node",
            properties: {
              value: { type: "string" },
              children: { type: "array", items: { $ref: "#/$defs/node" } },
            },
            required: ["value"],
          },
          unused: { type: "string" },
        },
      },
    });
    assert.equal(
      renderToolDeclaration(buildTree),
      lines(
        "// tools.srv.build_tree",
        "export interface BuildTreeInput { root: BuildTreeNode }",
        "/** A tree node */",
        "export interface BuildTreeNode { value: string; children?: BuildTreeNode[] }",
        "/** Builds a tree. */",
        "export declare function build_tree(input: BuildTreeInput): Promise<unknown>;",
      ),
    );
  });

  test("definitions, root references, and names that would clash get a suffix", () => {
    const clash = tool({
      name: "clash",
      inputSchema: {
        type: "object",
        properties: {
          i: { $ref: "#/definitions/Input" },
          x: { $ref: "#/definitions/item" },
          up: { $ref: "#" },
        },
        definitions: { Input: { type: "string" }, item: { enum: [1, 2] } },
      },
      outputSchema: {
        type: "object",
        properties: { y: { $ref: "#/$defs/item" }, z: { $ref: "#/$defs/a~1b" } },
        $defs: { item: { type: "boolean" }, "a/b": { type: "null" } },
      },
    });
    assert.equal(
      renderToolDeclaration(clash),
      lines(
        "// tools.srv.clash",
        "export interface ClashInput { i?: ClashInput2; x?: ClashItem; up?: ClashInput }",
        "export interface ClashOutput { y?: ClashItem2; z?: ClashAB }",
        "export type ClashInput2 = string;",
        "export type ClashItem = 1 | 2;",
        "export type ClashItem2 = boolean;",
        "export type ClashAB = null;",
        "export declare function clash(input: ClashInput): Promise<ClashOutput>;",
      ),
    );
  });

  test("a type alias that would reference itself falls back to unknown (a safe supertype)", () => {
    const cycle = tool({
      name: "cycle",
      inputSchema: {
        type: "object",
        properties: { x: { $ref: "#/$defs/a" }, self: { anyOf: [{ $ref: "#" }, { type: "string" }] } },
        $defs: { a: { anyOf: [{ $ref: "#/$defs/a" }, { type: "string" }] } },
      },
      outputSchema: { anyOf: [{ $ref: "#" }, { type: "object", properties: { next: { $ref: "#" } } }] },
    });
    assert.equal(
      renderToolDeclaration(cycle),
      lines(
        "// tools.srv.cycle",
        "export interface CycleInput { x?: CycleA; self?: CycleInput | string }",
        "export type CycleOutput = unknown;",
        "export type CycleA = unknown;",
        "export declare function cycle(input: CycleInput): Promise<CycleOutput>;",
      ),
    );
  });

  test("a short root union stays in the signature", () => {
    const union = tool({
      name: "pick",
      inputSchema: {
        oneOf: [
          { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          { type: "object", properties: { b: { type: "number" } }, required: ["b"] },
        ],
      },
    });
    assert.equal(
      renderToolDeclaration(union),
      lines(
        "// tools.srv.pick",
        "export declare function pick(input: { a: string } | { b: number }): Promise<unknown>;",
      ),
    );
  });
});

describe("annotationTags", () => {
  test("destructive and idempotent only for tools that may write", () => {
    assert.deepEqual(annotationTags(undefined), []);
    assert.deepEqual(annotationTags({ readOnlyHint: true, destructiveHint: true, idempotentHint: true }), [
      "@readonly",
    ]);
    assert.deepEqual(annotationTags({ readOnlyHint: false, destructiveHint: false, openWorldHint: true }), [
      "@openWorld",
    ]);
    assert.deepEqual(annotationTags({ destructiveHint: true, idempotentHint: true }), [
      "@destructive",
      "@idempotent",
    ]);
  });
});
