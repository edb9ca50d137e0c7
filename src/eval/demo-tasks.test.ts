import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { DEMO_ORACLE as ORACLE } from "../../test/helpers/demo-oracle.ts";
import { lastToolResults, reply, ScriptedModel, text, toolUse } from "../../test/helpers/scripted-model.ts";
import { REPO_ROOT } from "../../test/helpers/servers.ts";
import { demoSetup } from "../cli/demo-setup.ts";
import type { ModelRequest } from "../llm/types.ts";
import { runEval } from "./run-eval.ts";
import { readEvalTasks } from "./tasks-file.ts";

// The shipped tasks are answerable with the demo's servers and their expectations hold for the
// right answers: an oracle model runs a known program per task (code mode) and answers with what
// it returned, so a task whose data or expectation is wrong fails here.

describe("demo tasks", () => {
  it("are answered right from the demo's servers", { timeout: 120_000 }, async () => {
    const tasks = await readEvalTasks(join(REPO_ROOT, "examples/eval/demo-tasks.jsonl"));
    assert.deepEqual(tasks.map((task) => task.id).sort(), Object.keys(ORACLE).sort());
    const setup = demoSetup();
    try {
      const model = new ScriptedModel((request: ModelRequest) => {
        const [result] = lastToolResults(request);
        if (result) {
          assert.notEqual(result.isError, true, result.content);
          return reply([text(result.content)]);
        }
        const asked = request.messages[0]?.content[0];
        const task = tasks.find((candidate) => asked?.type === "text" && candidate.task === asked.text);
        return reply([toolUse("execute_code", { code: ORACLE[task?.id ?? ""] ?? "", typecheck: false })]);
      });
      const report = await runEval({ config: setup.config, tasks, modes: ["code"], model });
      assert.deepEqual(
        report.results.filter((result) => !result.passed).map((result) => [result.id, result.answer]),
        [],
      );
      assert.equal(report.results.length, tasks.length);
    } finally {
      setup.cleanup();
    }
  });
});
