import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jsonBytesUpTo } from "../output/bound-value.ts";
import { claudeLegacyTokenizer as tokenizer } from "../output/tokenizer.ts";
import type { PiiVault } from "../privacy/vault.ts";
import { formatExecuteAnswer, MAX_ANSWER_BYTES } from "../server/format-answer.ts";
import { type AnswerOptions, shapeAnswer } from "./answer.ts";
import type { ExecuteResponse } from "./types.ts";

const HUNDRED_MB = 100 * 1024 * 1024;
const BIG = "x".repeat(HUNDRED_MB);

function response(parts: Partial<ExecuteResponse>): ExecuteResponse {
  return {
    session: "default",
    toolCalls: 0,
    failedToolCalls: 0,
    toolResultBytes: 0,
    logs: [],
    durationMs: 1,
    ...parts,
  };
}

/** A vault that records the longest text it was asked to scan: the scan must only ever see cut text. */
function recordingVault(): { vault: PiiVault; longest: () => number } {
  let longest = 0;
  const tokenize = (text: string) => {
    longest = Math.max(longest, text.length);
    return text;
  };
  const tokenizeValue = (value: unknown) => {
    longest = Math.max(longest, jsonBytesUpTo(value, Number.MAX_SAFE_INTEGER).bytes);
    return value;
  };
  const vault = {
    tokenize,
    tokenizeValue,
    tokenizeAsync: async (text: string) => tokenize(text),
    tokenizeValueAsync: async (value: unknown) => tokenizeValue(value),
  } as unknown as PiiVault;
  return { vault, longest: () => longest };
}

const options: AnswerOptions = { maxTokens: 2000, maxTokensLimit: 20_000, strategy: "auto", tokenizer };

function assertBounded(shaped: ExecuteResponse): void {
  const answer = formatExecuteAnswer(shaped);
  const bytes = Buffer.byteLength(JSON.stringify(answer));
  assert.ok(bytes < MAX_ANSWER_BYTES, `answer is ${bytes} bytes`);
}

describe("shapeAnswer with huge parts", () => {
  it("cuts a 100 MB error message and stack before the PII scan, and within the budget", async () => {
    const { vault, longest } = recordingVault();
    const shaped = await shapeAnswer(
      response({ error: { kind: "runtime", name: "Error", message: BIG, stack: BIG } }),
      { ...options, vault },
    );
    assert.ok(longest() <= 300 * 1024, `the vault scanned ${longest()} characters`);
    assert.ok(shaped.answer.tokens <= options.maxTokens);
    assert.match(shaped.answer.text, /characters cut here/);
    assert.ok(tokenizer.count(shaped.error?.message ?? "") <= options.maxTokens, "structured message");
    assert.ok(tokenizer.count(shaped.error?.stack ?? "") <= options.maxTokens, "structured stack");
    assertBounded(shaped);
  });

  it("cuts 100 MB of logs, keeping the first and last lines", async () => {
    const logs = [
      { level: "log" as const, message: "first" },
      ...Array.from({ length: 100 }, () => ({ level: "log" as const, message: BIG.slice(0, 1024 * 1024) })),
      { level: "log" as const, message: "last" },
    ];
    const { vault, longest } = recordingVault();
    const shaped = await shapeAnswer(response({ logs }), { ...options, vault });
    assert.ok(longest() <= 300 * 1024, `the vault scanned ${longest()} characters`);
    assert.match(shaped.answer.text, /^Logs:\nfirst/);
    assert.match(shaped.answer.text, /last/);
    assert.ok(shaped.answer.tokens <= options.maxTokens);
    assertBounded(shaped);
  });

  it("cuts a 100 MB returned string and does not save the cut value as the full one", async () => {
    const saved: unknown[] = [];
    const shaped = await shapeAnswer(response({ result: BIG }), {
      ...options,
      saveFullValue: (value) => {
        saved.push(value);
        return "results/x.json";
      },
    });
    assert.equal(saved.length, 0);
    assert.ok(shaped.answer.tokens <= options.maxTokens);
    assert.ok(shaped.answer.reduced);
    assertBounded(shaped);
  });

  it("cuts a returned array of a million records", async () => {
    const rows = Array.from({ length: 1_000_000 }, (_, id) => ({ id, name: `row-${id}` }));
    const shaped = await shapeAnswer(response({ result: rows }), options);
    assert.ok(shaped.answer.tokens <= options.maxTokens);
    assertBounded(shaped);
  });

  it("a large budget (1,000,000 tokens) still answers within the hard byte cap", async () => {
    const shaped = await shapeAnswer(response({ result: "word ".repeat(300_000) }), {
      ...options,
      maxTokens: 1_000_000,
      maxTokensLimit: 1_000_000,
    });
    assertBounded(shaped);
  });

  it("formatExecuteAnswer bounds a response that skipped the answer step", async () => {
    assertBounded(
      response({
        result: BIG,
        logs: [{ level: "log", message: BIG }],
        error: { kind: "runtime", name: "Error", message: BIG },
      }),
    );
  });

  it("keeps small answers as they are", async () => {
    const shaped = await shapeAnswer(
      response({ result: { a: 1 }, error: { kind: "runtime", name: "Error", message: "boom" } }),
      options,
    );
    assert.equal(shaped.error?.message, "boom");
    const answer = formatExecuteAnswer(shaped);
    assert.deepEqual((answer.structuredContent as { result: unknown }).result, { a: 1 });
    assert.equal((answer.structuredContent as { cut?: string }).cut, undefined);
  });
});
