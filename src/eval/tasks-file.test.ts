import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { REPO_ROOT, tempDir } from "../../test/helpers/servers.ts";
import { EvaluationError } from "./errors.ts";
import { parseEvalTasks, readEvalTasks } from "./tasks-file.ts";

function problems(text: string): string {
  try {
    parseEvalTasks(text, "t.jsonl");
  } catch (error) {
    assert.ok(error instanceof EvaluationError);
    return error.message;
  }
  assert.fail("parsed without an error");
}

describe("tasks file", () => {
  it("parses one task per line, skipping blank lines, with line numbers", () => {
    const tasks = parseEvalTasks(
      [
        '{"id":"a","task":"Add 1 and 2","expect":{"contains":["3"]}}',
        "",
        '{"id":"b","task":"Name it","expect":{"matches":"^ok$"},"maxTurns":4}',
        "",
      ].join("\n"),
    );
    assert.deepEqual(tasks, [
      { id: "a", task: "Add 1 and 2", expect: { contains: ["3"] }, line: 1 },
      { id: "b", task: "Name it", expect: { matches: "^ok$" }, maxTurns: 4, line: 3 },
    ]);
  });

  it("names the line and the field of every problem at once", () => {
    const text = [
      '{"id":"a","task":"x","expect":{"contains":["1"]}}',
      "{not json",
      '{"task":"x","expect":{"contains":["1"]}}',
      '{"id":"c","task":"x","expect":{"matches":"(unclosed"}}',
      '{"id":"d","task":"x","expect":{}}',
      '{"id":"e","task":"x","expect":{"contains":"1"},"maxTurns":0}',
      '{"id":"a","task":"again","expect":{"matches":"x"}}',
      '{"id":"f","task":"x","expect":{"matches":"x"},"extra":1}',
      "[1]",
    ].join("\n");
    const message = problems(text);
    const lines = message.split("\n");
    assert.equal(lines[0], "invalid tasks file:");
    assert.match(lines[1] ?? "", /^t\.jsonl:2: not valid JSON: /);
    assert.deepEqual(lines.slice(2), [
      "t.jsonl:3: id: required",
      "t.jsonl:4: expect.matches: not a valid regular expression: Invalid regular expression: /(unclosed/iu: Unterminated group",
      't.jsonl:5: expect: give "contains" (a list of texts) or "matches" (a regular expression), or both',
      "t.jsonl:6: expect.contains: must be a list of texts",
      "t.jsonl:6: maxTurns: must be at least 1",
      't.jsonl:7: id: "a" is already the id of line 1',
      't.jsonl:8: Unrecognized key: "extra"',
      "t.jsonl:9: must be a JSON object",
    ]);
    try {
      parseEvalTasks(text, "t.jsonl");
    } catch (error) {
      assert.ok(error instanceof EvaluationError);
      assert.equal(error.code, "eval.tasks_invalid");
      assert.deepEqual((error.data.issues as unknown[])[1], { line: 3, field: "id", message: "required" });
    }
  });

  it("refuses a file without tasks, and one that cannot be read", async () => {
    assert.equal(problems("\n\n"), "t.jsonl holds no tasks (one JSON object per line)");
    const dir = tempDir("eval-tasks");
    try {
      await assert.rejects(readEvalTasks(join(dir.path, "missing.jsonl")), {
        code: "eval.tasks_unreadable",
        message: /^cannot read .*missing\.jsonl: ENOENT/,
      });
      const file = join(dir.path, "ok.jsonl");
      writeFileSync(file, '{"id":"x","task":"y","expect":{"contains":["z"]}}\n');
      assert.equal((await readEvalTasks(file)).length, 1);
    } finally {
      dir.remove();
    }
  });

  it("accepts the shipped demo tasks", async () => {
    const tasks = await readEvalTasks(join(REPO_ROOT, "examples/eval/demo-tasks.jsonl"));
    assert.ok(tasks.length >= 5 && tasks.length <= 8, `${tasks.length} tasks`);
  });
});
