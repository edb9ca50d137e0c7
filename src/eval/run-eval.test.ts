import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { lastToolResults, reply, ScriptedModel, text, toolUse } from "../../test/helpers/scripted-model.ts";
import { SCRIPTED_JS, tempDir } from "../../test/helpers/servers.ts";
import { parseConfig } from "../config/parse.ts";
import type { ModelRequest, ModelResponse } from "../llm/types.ts";
import { DIRECT_SYSTEM_PROMPT } from "./modes.ts";
import { formatEvalReport, summarizeModes } from "./report.ts";
import { type EvalProgress, runEval } from "./run-eval.ts";
import { parseEvalTasks } from "./tasks-file.ts";

// The eval over a real gateway with the scripted MCP server, in both modes, driven by a scripted model
// that plays each mode the way it is offered: upstream tools directly, or the meta-tools.

const TASKS = parseEvalTasks(
  [
    '{"id":"sum","task":"What is 2 + 3?","expect":{"matches":"\\\\b5\\\\b"}}',
    '{"id":"wrong","task":"Say ok.","expect":{"contains":["ok"]}}',
    '{"id":"endless","task":"Keep echoing.","expect":{"contains":["x"]},"maxTurns":2}',
  ].join("\n"),
);

function play(request: ModelRequest): ModelResponse {
  const task = request.messages[0]?.content[0];
  const asked = task?.type === "text" ? task.text : "";
  const code = request.tools?.some((tool) => tool.name === "execute_code") ?? false;
  const results = lastToolResults(request);
  if (asked === "Say ok.") return reply([text("no")]);
  if (asked === "Keep echoing.") {
    return reply([
      code
        ? toolUse("execute_code", { code: 'return await tools.scripted.echo({ message: "x" });' })
        : toolUse("scripted__echo", { message: "x" }),
    ]);
  }
  if (results.length > 0) {
    const sum = /\b5\b/.test(results[0]?.content ?? "") ? "5" : "unknown";
    return reply([text(`The sum is ${sum}.`)], { inputTokens: code ? 300 : 900, outputTokens: 10 });
  }
  return reply(
    [
      code
        ? toolUse("execute_code", { code: "return (await tools.scripted.add({ a: 2, b: 3 })).sum;" })
        : toolUse("scripted__add", { a: 2, b: 3 }),
    ],
    { inputTokens: code ? 200 : 800, outputTokens: 20 },
  );
}

describe("runEval", () => {
  const dir = tempDir("eval");
  after(() => dir.remove());

  it("runs every task in direct and code mode and reports per mode and task", async () => {
    const config = parseConfig(
      {
        mcpServers: {
          scripted: { command: process.execPath, args: [SCRIPTED_JS] },
          off: { command: process.execPath, args: [SCRIPTED_JS], disabled: true },
        },
        toolscript: { storage: { dir: dir.path }, sandbox: { timeoutMs: 10_000 } },
      },
      { baseDir: dir.path, env: {} },
    );
    const model = new ScriptedModel((request) => play(request));
    const progress: EvalProgress["type"][] = [];
    const report = await runEval({
      config,
      tasks: TASKS,
      modes: ["direct", "code"],
      model,
      onProgress: (event) => {
        if (event.type !== "agent") progress.push(event.type);
      },
    });

    // Direct mode offered the upstream tools through the gateway's pass-through, and no meta-tool.
    const direct = model.requests[0] as ModelRequest;
    const directTools = direct.tools?.map((tool) => tool.name) ?? [];
    assert.ok(directTools.includes("scripted__add") && directTools.includes("scripted__echo"));
    assert.ok(
      directTools.every((name) => name.startsWith("scripted__")),
      directTools.join(", "),
    );
    assert.equal(
      direct.tools?.find((tool) => tool.name === "scripted__add")?.description,
      "Add two numbers and return structured content.",
    );
    assert.equal(direct.system, DIRECT_SYSTEM_PROMPT);
    const code = model.requests.find((request) =>
      request.tools?.some((tool) => tool.name === "execute_code"),
    );
    assert.deepEqual(code?.tools?.map((tool) => tool.name).sort(), [
      "describe_tools",
      "execute_code",
      "list_tools",
      "search_tools",
    ]);

    assert.equal(report.model, "scripted-model");
    assert.deepEqual(
      report.results.map((result) => [
        result.mode,
        result.id,
        result.passed,
        result.stopped,
        result.failures,
      ]),
      [
        ["direct", "sum", true, "answer", []],
        ["direct", "wrong", false, "answer", ['missing "ok"']],
        ["direct", "endless", false, "max_turns", ["no answer within the turn limit"]],
        ["code", "sum", true, "answer", []],
        ["code", "wrong", false, "answer", ['missing "ok"']],
        ["code", "endless", false, "max_turns", ["no answer within the turn limit"]],
      ],
    );
    const [directSum, , , codeSum] = report.results;
    assert.equal(directSum?.answer, "The sum is 5.");
    assert.deepEqual(directSum?.usage, { requests: 2, inputTokens: 1700, outputTokens: 30 });
    assert.equal(codeSum?.answer, "The sum is 5.");
    assert.deepEqual(codeSum?.usage, { requests: 2, inputTokens: 500, outputTokens: 30 });
    assert.equal(report.results[2]?.turns, 2);
    assert.equal(report.results[2]?.toolCalls, 1);
    const mode = ["mode_started", ...TASKS.flatMap(() => ["task_started", "task_finished"])];
    assert.deepEqual(progress, [...mode, ...mode]);

    const [directMode, codeMode] = summarizeModes(report);
    assert.equal(directMode?.passed, 1);
    assert.equal(codeMode?.tasks, 3);
    assert.equal(codeMode?.meanTurns, (2 + 1 + 2) / 3);
    const printed = formatEvalReport(report);
    assert.match(printed, /^\n### Eval by mode \(scripted-model\)\n\n\| mode +\| passed \|/);
    assert.match(printed, /\| direct \| 1\/3 +\|/);
    assert.match(printed, /\| sum +\| code +\| pass /);
  });

  it("skips what is left once the signal aborts", async () => {
    const config = parseConfig(
      {
        mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
        toolscript: { storage: { dir: dir.path } },
      },
      { baseDir: dir.path, env: {} },
    );
    const controller = new AbortController();
    const model = new ScriptedModel(() => {
      controller.abort();
      return reply([text("5")]);
    });
    const report = await runEval({
      config,
      tasks: TASKS,
      modes: ["code", "direct"],
      model,
      signal: controller.signal,
    });
    assert.deepEqual(
      report.results.map((result) => [result.mode, result.id, result.stopped]),
      [["code", "sum", "cancelled"]],
    );
    assert.equal(model.requests.length, 1);
  });
});
