import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { lastToolResults, reply, ScriptedModel, text, toolUse } from "../../test/helpers/scripted-model.ts";
import { REPO_ROOT } from "../../test/helpers/servers.ts";
import { demoSetup } from "../cli/demo-setup.ts";
import type { ModelRequest } from "../llm/types.ts";
import { runEval } from "./run-eval.ts";
import { readEvalTasks } from "./tasks-file.ts";

// The shipped tasks are answerable with the demo's servers and their expectations hold for the
// right answers: an oracle model runs a known program per task (code mode) and answers with what
// it returned, so a task whose data or expectation is wrong fails here.

const READ_SALES = [
  "const dirs = await tools.filesystem.list_allowed_directories({});",
  "const dir = String(dirs.content ?? dirs).split('\\n')[1];",
  'const file = await tools.filesystem.read_text_file({ path: dir + "/sales.csv" });',
  "const [header, ...lines] = file.content.trim().split('\\n');",
  "const cols = header.split(',');",
  "const rows = lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [cols[i], v])));",
  "const revenue = (r) => Number(r.quantity) * Number(r.unit_price);",
  "const top = (m) => [...m].sort((a, b) => b[1] - a[1])[0];",
  "const tally = (key, value) => { const m = new Map(); for (const r of rows) m.set(r[key], (m.get(r[key]) ?? 0) + value(r)); return m; };",
].join("\n");

const ORACLE: Record<string, string> = {
  "order-count": `${READ_SALES}\nreturn rows.length;`,
  "top-product": `${READ_SALES}\nreturn top(tally("product", revenue))[0];`,
  "busiest-region": `${READ_SALES}\nreturn top(tally("region", () => 1)).join(" with ");`,
  "lamps-east": `${READ_SALES}\nreturn rows.filter((r) => r.product === "lamp" && r.region === "east").reduce((s, r) => s + Number(r.quantity), 0);`,
  "largest-order": `${READ_SALES}\nreturn [...rows].sort((a, b) => revenue(b) - revenue(a))[0].order_id;`,
  "everything-sum": "return await tools.everything.get_sum({ a: 1234, b: 5678 });",
  "memory-round-trip": [
    READ_SALES,
    'const total = Math.round(rows.filter((r) => r.region === "south").reduce((s, r) => s + revenue(r), 0));',
    'await tools.memory.create_entities({ entities: [{ name: "south-region", entityType: "region", observations: [] }] });',
    'await tools.memory.add_observations({ observations: [{ entityName: "south-region", contents: [String(total)] }] });',
    'const node = await tools.memory.open_nodes({ names: ["south-region"] });',
    "return node.entities[0].observations;",
  ].join("\n"),
};

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
