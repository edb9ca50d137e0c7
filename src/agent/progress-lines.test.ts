import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentEvent } from "./events.ts";
import { summarizeToolInput } from "./input-summary.ts";
import { formatAgentEvent, formatRunSummary } from "./progress-lines.ts";
import type { AgentRunResult } from "./types.ts";

describe("progress lines", () => {
  it("prints turns and tool calls, one line each", () => {
    const events: AgentEvent[] = [
      { type: "turn_started", turn: 1 },
      {
        type: "turn_finished",
        turn: 1,
        usage: { inputTokens: 12040, outputTokens: 96 },
        stopReason: "tool_use",
        toolUses: 1,
        durationMs: 1432,
      },
      { type: "tool_started", turn: 1, id: "a", name: "search_tools", summary: '"sales csv"' },
      {
        type: "tool_finished",
        turn: 1,
        id: "a",
        name: "search_tools",
        durationMs: 12.4,
        isError: false,
        resultChars: 1312,
        resultTokens: 388,
      },
      { type: "tool_started", turn: 1, id: "b", name: "list_tools", summary: "" },
      {
        type: "tool_finished",
        turn: 1,
        id: "b",
        name: "list_tools",
        durationMs: 2300,
        isError: true,
        resultChars: 40,
      },
      {
        type: "turn_finished",
        turn: 2,
        usage: { inputTokens: 900, outputTokens: 4000 },
        stopReason: "max_tokens",
        toolUses: 0,
        durationMs: 20,
      },
      {
        type: "turn_finished",
        turn: 3,
        usage: { inputTokens: 1000, outputTokens: 12 },
        stopReason: "end_turn",
        toolUses: 2,
        durationMs: 999.6,
      },
      { type: "answer", text: "42", stopped: "answer" },
    ];
    assert.deepEqual(events.map(formatAgentEvent), [
      undefined,
      "turn 1: 12,040 tokens in, 96 out, 1.4 s, 1 tool use",
      '  → search_tools "sales csv"',
      "  ← search_tools 1,312 chars, 388 tokens, 12 ms",
      "  → list_tools",
      "  ✗ list_tools failed: 40 chars, 2.3 s",
      "turn 2: 900 tokens in, 4,000 out, 20 ms, cut at the output limit",
      "turn 3: 1,000 tokens in, 12 out, 1.0 s, 2 tool uses",
      undefined,
    ]);
  });

  it("sums a run up in one line", () => {
    const result: AgentRunResult = {
      answer: "42",
      stopped: "answer",
      turns: 3,
      usage: { requests: 3, inputTokens: 15230, outputTokens: 410 },
      toolCalls: [
        { name: "search_tools", durationMs: 10, isError: false, resultChars: 10 },
        { name: "execute_code", durationMs: 10, isError: true, resultChars: 10 },
        { name: "execute_code", durationMs: 10, isError: false, resultChars: 10 },
      ],
      durationMs: 4210,
    };
    assert.equal(
      formatRunSummary(result, "$0.0123"),
      "answered: 3 turns, 3 tool calls (1 failed), 15,230 tokens in / 410 out over 3 requests, 4.2 s, $0.0123",
    );
    assert.equal(
      formatRunSummary({
        ...result,
        stopped: "cancelled",
        turns: 1,
        toolCalls: [],
        usage: { requests: 1, inputTokens: 5, outputTokens: 1 },
        durationMs: 80,
      }),
      "cancelled: 1 turn, 0 tool calls, 5 tokens in / 1 out over 1 request, 80 ms",
    );
  });
});

describe("summarizeToolInput", () => {
  it("shows a program's first line, a query, names, else compact JSON", () => {
    assert.equal(summarizeToolInput({ code: "\n  const a = 1;\n\nreturn a;\n" }), "const a = 1; (+1 lines)");
    assert.equal(summarizeToolInput({ code: "return 1;" }), "return 1;");
    assert.equal(summarizeToolInput({ task_description: "Sum the sales", arguments: {} }), "Sum the sales");
    assert.equal(summarizeToolInput({ query: "sales csv", limit: 5 }), '"sales csv"');
    assert.equal(summarizeToolInput({ names: ["a/b", "c/d"] }), "a/b, c/d");
    assert.equal(summarizeToolInput({}), "");
    assert.equal(summarizeToolInput({ server: "everything" }), '{"server":"everything"}');
    const long = summarizeToolInput({ code: `${"x".repeat(200)}\nmore` });
    assert.equal(long, `${"x".repeat(65)}… (+1 lines)`);
    assert.equal(summarizeToolInput({ path: "y".repeat(100) }).length, 80);
  });
});
