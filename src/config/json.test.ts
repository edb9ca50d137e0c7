import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lineColumn, parseJson } from "./json.ts";

function failure(text: string) {
  const result = parseJson(text);
  assert.equal(result.ok, false, `expected ${JSON.stringify(text)} to be invalid`);
  if (result.ok) throw new Error("unreachable");
  return { line: result.line, column: result.column, message: result.message };
}

describe("parseJson", () => {
  it("parses valid JSON, with or without a BOM", () => {
    assert.deepEqual(parseJson('{"a": [1, "x", null, true]}'), {
      ok: true,
      value: { a: [1, "x", null, true] },
    });
    assert.deepEqual(parseJson('\uFEFF{"a": 1}'), { ok: true, value: { a: 1 } });
  });

  it("points at a trailing comma", () => {
    assert.deepEqual(failure('{\n  "a": 1,\n}'), {
      line: 2,
      column: 9,
      message: "trailing comma is not allowed in JSON",
    });
  });

  it("points at a missing comma between properties", () => {
    const text = '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}';
    assert.deepEqual(failure(text), {
      line: 4,
      column: 5,
      message: `unexpected character "\\"", expected ',' or '}' after the property value`,
    });
  });

  it("points at a bad literal (V8 gives no position for this one)", () => {
    const got = failure('{"a": tru}');
    assert.deepEqual([got.line, got.column], [1, 7]);
    assert.match(got.message, /expected a value/);
  });

  it("names comments and single quotes", () => {
    assert.deepEqual(failure('{\n  // servers\n  "a": 1\n}'), {
      line: 2,
      column: 3,
      message: "comments are not allowed in JSON",
    });
    assert.equal(failure("{'a': 1}").message, "strings must use double quotes");
  });

  it("reports unexpected end of input at the end", () => {
    assert.deepEqual(failure('{"a": [1, 2'), {
      line: 1,
      column: 12,
      message: "unexpected end of input, expected ',' or ']' after the array element",
    });
    assert.deepEqual(failure(""), {
      line: 1,
      column: 1,
      message: "unexpected end of input, expected a value",
    });
  });

  it("reports unterminated strings and raw newlines in strings", () => {
    assert.deepEqual(failure('{"a": "abc'), { line: 1, column: 7, message: "unterminated string" });
    assert.equal(failure('{"a": "x\ny"}').message, "control character in string (escape it, e.g. \\n)");
  });

  it("reports content after the value", () => {
    assert.deepEqual(failure("{}\n{}"), {
      line: 2,
      column: 1,
      message: "unexpected content after the JSON value",
    });
  });

  it("counts columns after a BOM in the original text", () => {
    assert.deepEqual([failure("\uFEFF{,}").line, failure("\uFEFF{,}").column], [1, 3]);
  });
});

describe("lineColumn", () => {
  it("is 1-based", () => {
    assert.deepEqual(lineColumn("ab\ncd", 0), { line: 1, column: 1 });
    assert.deepEqual(lineColumn("ab\ncd", 4), { line: 2, column: 2 });
  });
});
