import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseConfig } from "../config/parse.ts";
import { checkAnswer } from "./expectation.ts";
import { evalModeSetup, parseEvalModes } from "./modes.ts";
import { formatEvalReport } from "./report.ts";
import type { EvalReport } from "./run-eval.ts";
import type { EvalTaskResult } from "./run-task.ts";

function result(overrides: Partial<EvalTaskResult>): EvalTaskResult {
  return {
    id: "t",
    mode: "code",
    passed: true,
    failures: [],
    answer: "",
    stopped: "answer",
    turns: 2,
    usage: { requests: 2, inputTokens: 1000, outputTokens: 100 },
    toolCalls: 1,
    failedToolCalls: 0,
    durationMs: 1500,
    ...overrides,
  };
}

describe("eval report", () => {
  it("prints the modes, the tasks and code mode's share of direct mode's input tokens", () => {
    const report: EvalReport = {
      model: "claude-x",
      modes: ["direct", "code"],
      results: [
        result({
          id: "sum",
          mode: "direct",
          usage: { requests: 3, inputTokens: 48000, outputTokens: 300 },
          turns: 3,
          toolCalls: 4,
        }),
        result({
          id: "csv",
          mode: "direct",
          passed: false,
          failures: ["the run failed"],
          stopped: "error",
          usage: { requests: 1, inputTokens: 12000, outputTokens: 0 },
          turns: 1,
          toolCalls: 1,
          durationMs: 800,
        }),
        result({
          id: "sum",
          mode: "code",
          usage: { requests: 3, inputTokens: 6000, outputTokens: 240 },
          turns: 3,
          toolCalls: 3,
          failedToolCalls: 1,
        }),
        result({
          id: "csv",
          mode: "code",
          usage: { requests: 2, inputTokens: 3000, outputTokens: 160 },
          durationMs: 2500,
        }),
      ],
    };
    assert.equal(
      formatEvalReport(report),
      [
        "",
        "### Eval by mode (claude-x)",
        "",
        "| mode   | passed | mean tokens in | mean tokens out | mean turns | mean tool calls | mean time |",
        "| ------ | ------ | -------------- | --------------- | ---------- | --------------- | --------- |",
        "| direct | 1/2    | 30,000         | 150             | 2.0        | 2.5             | 1.1 s     |",
        "| code   | 2/2    | 4,500          | 200             | 2.5        | 2.0             | 2.0 s     |",
        "",
        "### Eval by task",
        "",
        "| task | mode   | result               | tokens in | tokens out | turns | tool calls   | time   |",
        "| ---- | ------ | -------------------- | --------- | ---------- | ----- | ------------ | ------ |",
        "| sum  | direct | pass                 | 48,000    | 300        | 3     | 4            | 1.5 s  |",
        "| csv  | direct | FAIL: the run failed | 12,000    | 0          | 1     | 1            | 800 ms |",
        "| sum  | code   | pass                 | 6,000     | 240        | 3     | 3 (1 failed) | 1.5 s  |",
        "| csv  | code   | pass                 | 3,000     | 160        | 2     | 1            | 2.5 s  |",
        "",
        "Code mode read 15% of the input tokens direct mode read (mean per task), and passed 2 of 2 tasks against direct mode's 1 of 2.",
        "",
      ].join("\n"),
    );
  });
});

describe("checkAnswer", () => {
  it("wants every text (any case) and a match of the expression", () => {
    assert.deepEqual(
      checkAnswer("The top region is East with 4,049 orders.", { contains: ["east"], matches: "4,?049" }),
      [],
    );
    assert.deepEqual(checkAnswer("West", { contains: ["east", "West"], matches: "^\\d+$" }), [
      'missing "east"',
      "no match for /^\\d+$/",
    ]);
  });
});

describe("eval modes", () => {
  it("parses a list of modes and refuses unknown ones", () => {
    assert.deepEqual(parseEvalModes("direct, code,direct"), ["direct", "code"]);
    assert.throws(() => parseEvalModes("code,fast"), {
      code: "eval.invalid_modes",
      message: 'unknown mode "fast": the modes are direct, code',
    });
    assert.throws(() => parseEvalModes(" , "), { message: "no mode: the modes are direct, code" });
  });

  it("passes every enabled server through in direct mode and keeps the config in code mode", () => {
    const config = parseConfig(
      {
        mcpServers: {
          files: { command: "x" },
          "my server": { command: "x" },
          off: { command: "x", disabled: true },
        },
        toolscript: { passThrough: { files: { prefix: "" } } },
      },
      { baseDir: "/", env: {} },
    );
    assert.equal(evalModeSetup(config, "code").config, config);
    const direct = evalModeSetup(config, "direct");
    assert.deepEqual(direct.config.settings.passThrough, {
      files: { prefix: "files__" },
      "my server": { prefix: "my_server__" },
    });
    assert.equal(config.settings.passThrough.files?.prefix, "", "the given config is not changed");
    assert.equal(direct.tools?.("files__read"), true);
    assert.equal(direct.tools?.("my_server__x"), true);
    assert.equal(direct.tools?.("execute_code"), false);
    assert.equal(direct.tools?.("off__x"), false);
  });
});
