import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  appendTags,
  descriptionLines,
  escapeJsDoc,
  renderJsDoc,
  schemaDocLines,
  schemaTags,
} from "./jsdoc.ts";

describe("jsdoc", () => {
  test("escapeJsDoc keeps */ from closing the comment", () => {
    assert.equal(escapeJsDoc("a */ b */"), "a *\\/ b *\\/");
    assert.equal(escapeJsDoc("/* fine *"), "/* fine *");
  });

  test("descriptionLines trims, normalizes line ends and collapses blank runs", () => {
    assert.deepEqual(descriptionLines("  one  \r\ntwo\r\n\r\n\n\nthree */  "), [
      "one",
      "two",
      "",
      "three *\\/",
    ]);
    assert.deepEqual(descriptionLines("   "), []);
  });

  test("schemaTags keeps short, useful constraints", () => {
    assert.deepEqual(
      schemaTags({
        deprecated: true,
        default: { a: 1 },
        format: "date-time",
        minimum: -1,
        exclusiveMaximum: 5,
        maxLength: 20,
        pattern: "^[a-z]+*/$",
        examples: ["x", "y"],
      }),
      [
        "@deprecated",
        '@default {"a":1}',
        "@format date-time",
        "@minimum -1",
        "@exclusiveMaximum 5",
        "@maxLength 20",
        "@pattern ^[a-z]+*\\/$",
        '@example "x"',
      ],
    );
  });

  test("schemaTags drops long values and safe-integer bounds", () => {
    assert.deepEqual(
      schemaTags({
        default: "x".repeat(100),
        minimum: -9007199254740991,
        maximum: 9007199254740991,
        example: 3,
      }),
      ["@example 3"],
    );
    assert.deepEqual(schemaTags({ default: null }), ["@default null"]);
  });

  test("schemaDocLines joins tags to a one-line description", () => {
    assert.deepEqual(schemaDocLines({ description: "Max results.", default: 10 }), [
      "Max results. @default 10",
    ]);
    assert.deepEqual(schemaDocLines({ description: "a\nb", default: 10 }), ["a", "b", "@default 10"]);
    assert.deepEqual(schemaDocLines({ default: 10 }), ["@default 10"]);
    assert.deepEqual(schemaDocLines({ type: "string" }), []);
    assert.deepEqual(schemaDocLines(true), []);
    assert.deepEqual(appendTags(["x"], []), ["x"]);
  });

  test("renderJsDoc: nothing, one line, or a block", () => {
    assert.equal(renderJsDoc([]), "");
    assert.equal(renderJsDoc(["one"], "  "), "  /** one */\n");
    assert.equal(renderJsDoc(["one", "", "two"], "  "), "  /**\n   * one\n   *\n   * two\n   */\n");
  });
});
