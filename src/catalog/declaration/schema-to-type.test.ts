import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { MAX_SCHEMA_DEPTH, schemaToType } from "./schema-to-type.ts";

function check(cases: ReadonlyArray<readonly [string, unknown, string]>): void {
  for (const [label, schema, expected] of cases) {
    test(label, () => assert.equal(schemaToType(schema).text, expected));
  }
}

describe("schemaToType: scalars, literals and combinations", () => {
  check([
    ["string", { type: "string" }, "string"],
    ["integer is number", { type: "integer" }, "number"],
    ["number", { type: "number" }, "number"],
    ["boolean", { type: "boolean" }, "boolean"],
    ["null", { type: "null" }, "null"],
    ["type array is a union", { type: ["string", "null"] }, "string | null"],
    [
      "type array with an object",
      { type: ["object", "null"], properties: { a: { type: "string" } }, required: ["a"] },
      "{ a: string } | null",
    ],
    [
      "enum of mixed JSON literals",
      { enum: ["a", 1, true, null, -2.5, { k: "v" }, [1, "x"]] },
      '"a" | 1 | true | null | -2.5 | { k: "v" } | [1, "x"]',
    ],
    ["enum wins over type", { type: "string", enum: ["x", "y", "x"] }, '"x" | "y"'],
    ["empty enum", { enum: [] }, "never"],
    ["const", { const: "fixed" }, '"fixed"'],
    ["const with quotes", { const: 'say "hi"' }, '"say \\"hi\\""'],
    [
      "anyOf, deduplicated",
      { anyOf: [{ type: "string" }, { type: "number" }, { type: "string" }] },
      "string | number",
    ],
    ["oneOf with an unconstrained member", { oneOf: [{ type: "string" }, {}] }, "unknown"],
    [
      "allOf",
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { type: "object", properties: { b: { type: "number" } } },
        ],
      },
      "{ a?: string } & { b?: number }",
    ],
    [
      "allOf of unions keeps parentheses",
      {
        allOf: [
          { anyOf: [{ type: "string" }, { type: "number" }] },
          { anyOf: [{ type: "number" }, { type: "null" }] },
        ],
      },
      "(string | number) & (number | null)",
    ],
    [
      "type with anyOf refinements",
      {
        type: "object",
        properties: { a: { type: "string" }, b: { type: "string" } },
        anyOf: [{ required: ["a"] }, { required: ["b"] }],
      },
      "{ a?: string; b?: string } & ({ a: unknown } | { b: unknown })",
    ],
    ["OpenAPI nullable", { type: "string", nullable: true }, "string | null"],
    ["nullable does not repeat null", { type: ["string", "null"], nullable: true }, "string | null"],
  ]);
});

describe("schemaToType: arrays and tuples", () => {
  check([
    ["items", { type: "array", items: { type: "string" } }, "string[]"],
    [
      "items union gets parentheses",
      { type: "array", items: { type: ["string", "number"] } },
      "(string | number)[]",
    ],
    ["no items", { type: "array" }, "unknown[]"],
    [
      "nested arrays",
      { type: "array", items: { type: "array", items: { anyOf: [{ type: "string" }, { type: "null" }] } } },
      "(string | null)[][]",
    ],
    [
      "array of objects",
      { type: "array", items: { type: "object", properties: { a: { type: "string" } } } },
      "{ a?: string }[]",
    ],
    ["negative literal items", { type: "array", items: { const: -1 } }, "-1[]"],
    [
      "prefixItems: optional after minItems, open rest",
      { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], minItems: 1 },
      "[string, number?, ...unknown[]]",
    ],
    [
      "prefixItems closed by items: false",
      { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false, minItems: 2 },
      "[string, number]",
    ],
    [
      "prefixItems with a typed rest",
      { type: "array", prefixItems: [{ type: "string" }], items: { type: "boolean" }, minItems: 1 },
      "[string, ...boolean[]]",
    ],
    [
      "draft-07 array items closed by maxItems",
      { type: "array", items: [{ type: "string" }, { type: ["number", "null"] }], minItems: 2, maxItems: 2 },
      "[string, number | null]",
    ],
    [
      "draft-07 optional union element",
      { type: "array", items: [{ type: ["number", "null"] }], additionalItems: false },
      "[(number | null)?]",
    ],
  ]);
});

describe("schemaToType: objects", () => {
  check([
    ["object without properties", { type: "object" }, "Record<string, unknown>"],
    ["additionalProperties: true", { type: "object", additionalProperties: true }, "Record<string, unknown>"],
    ["additionalProperties: {}", { type: "object", additionalProperties: {} }, "Record<string, unknown>"],
    [
      "closed and empty",
      { type: "object", properties: {}, additionalProperties: false },
      "Record<string, never>",
    ],
    [
      "additionalProperties schema",
      { type: "object", additionalProperties: { type: "number" } },
      "Record<string, number>",
    ],
    [
      "index signature matching required properties",
      {
        type: "object",
        properties: { a: { type: "number" } },
        required: ["a"],
        additionalProperties: { type: "number" },
      },
      "{ a: number; [key: string]: number }",
    ],
    [
      "index signature admits undefined for optional properties",
      { type: "object", properties: { a: { type: "number" } }, additionalProperties: { type: "number" } },
      "{ a?: number; [key: string]: number | undefined }",
    ],
    [
      "conflicting index signature is unknown",
      { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "number" } },
      "{ a?: string; [key: string]: unknown }",
    ],
    [
      "closed object with properties",
      { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
      "{ a?: string }",
    ],
    [
      "patternProperties",
      { type: "object", patternProperties: { "^x-": { type: "string" }, "^n-": { type: "number" } } },
      "Record<string, string | number>",
    ],
    [
      "object keywords without type",
      { properties: { a: { type: "boolean" } }, required: ["a"] },
      "{ a: boolean }",
    ],
    [
      "quoted keys",
      {
        type: "object",
        properties: { "content-type": { type: "string" }, "1abc": { type: "number" }, $ok: {} },
      },
      '{ "content-type"?: string; "1abc"?: number; $ok?: unknown }',
    ],
    [
      "required without a schema",
      { type: "object", properties: { a: { type: "string" } }, required: ["a", "b"] },
      "{ a: string; b: unknown }",
    ],
    ["property schema false", { type: "object", properties: { gone: false } }, "{ gone?: never }"],
  ]);

  test("documented properties go on their own lines, with tags and escaped comment ends", () => {
    const schema = {
      type: "object",
      properties: {
        a: { type: "string", description: "Ends */ here", default: "x", format: "uri" },
        b: { type: "integer", minimum: 0, maximum: 10, deprecated: true, examples: [5] },
        c: { type: "boolean" },
      },
      required: ["c"],
    };
    assert.equal(
      schemaToType(schema).text,
      [
        "{",
        '  /** Ends *\\/ here @default "x" @format uri */',
        "  a?: string;",
        "  /** @deprecated @minimum 0 @maximum 10 @example 5 */",
        "  b?: number;",
        "  c: boolean;",
        "}",
      ].join("\n"),
    );
  });

  test("nested objects are indented", () => {
    const schema = {
      type: "object",
      properties: {
        outer: {
          type: "object",
          properties: {
            inner: {
              type: "object",
              description: "deep",
              properties: { x: { type: "string", description: "leaf" } },
            },
          },
        },
      },
    };
    assert.equal(
      schemaToType(schema).text,
      [
        "{",
        "  outer?: {",
        "    /** deep */",
        "    inner?: {",
        "      /** leaf */",
        "      x?: string;",
        "    };",
        "  };",
        "}",
      ].join("\n"),
    );
  });

  test("a long object without comments is split into lines", () => {
    const properties = Object.fromEntries(
      ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"].map((k) => [k, { type: "string" }]),
    );
    assert.equal(
      schemaToType({ type: "object", properties }).text,
      "{\n  alpha?: string;\n  bravo?: string;\n  charlie?: string;\n  delta?: string;\n  echo?: string;\n  foxtrot?: string;\n}",
    );
  });
});

describe("schemaToType: what TypeScript cannot express falls back to unknown", () => {
  check([
    ["not", { not: { type: "string" } }, "unknown"],
    [
      "if/then/else",
      JSON.parse('{"if":{"type":"string"},"then":{"minLength":1},"else":{"type":"number"}}'),
      "unknown",
    ],
    ["not next to a type keeps the type", { type: "string", not: { const: "" } }, "string"],
    ["external $ref", { $ref: "https://example.com/schema.json#/$defs/a" }, "unknown"],
    ["local $ref without a resolver", { $ref: "#/$defs/a" }, "unknown"],
    ["unknown type name", { type: "date" }, "unknown"],
    ["boolean schema false", false, "never"],
    ["boolean schema true", true, "unknown"],
    ["empty schema", {}, "unknown"],
    ["not a schema", 42, "unknown"],
    ["array as a schema", [{ type: "string" }], "unknown"],
  ]);

  test("absurd depth stops at unknown", () => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 100; i += 1) schema = { type: "array", items: schema };
    const text = schemaToType(schema).text;
    assert.equal(text, `unknown${"[]".repeat(MAX_SCHEMA_DEPTH + 1)}`);
  });

  test("an in-memory cycle does not loop", () => {
    const schema: Record<string, unknown> = { type: "object" };
    schema.properties = { self: schema, name: { type: "string" } };
    assert.equal(schemaToType(schema).text, "{ self?: unknown; name?: string }");
  });
});
