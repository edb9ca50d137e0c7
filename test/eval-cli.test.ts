import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { startOpenAIStub } from "./helpers/model-stubs/openai-chat-stub.ts";
import { lastToolResults, type StubScript } from "./helpers/model-stubs/script.ts";
import { runCliAsync } from "./helpers/run-cli-async.ts";
import { SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

/** Code mode: one program; direct mode: the upstream tool itself; then the answer from the result. */
const script: StubScript = ({ body }) => {
  const tools = (body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
  const results = lastToolResults(body);
  if (results.length === 0) {
    return tools.includes("execute_code")
      ? {
          toolUses: [
            {
              name: "execute_code",
              input: { code: "return (await tools.scripted.add({ a: 40, b: 2 })).sum;" },
            },
          ],
          usage: { inputTokens: 900, outputTokens: 30 },
        }
      : {
          toolUses: [{ name: "scripted__add", input: { a: 40, b: 2 } }],
          usage: { inputTokens: 2000, outputTokens: 20 },
        };
  }
  const number = /\b(\d{2})\b/.exec(results.map((result) => result.content).join(" "))?.[1] ?? "?";
  return { text: `It is ${number}.`, usage: { inputTokens: 1000, outputTokens: 5 } };
};

describe("toolscript eval", () => {
  const dir = tempDir("eval-cli");
  after(() => dir.remove());

  test("runs each task in both modes with the same model and prints the comparison", async () => {
    const stub = await startOpenAIStub(script);
    try {
      const config = join(dir.path, "toolscript.config.json");
      writeFileSync(
        config,
        JSON.stringify({
          mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
          toolscript: {
            storage: { dir: join(dir.path, "data") },
            llm: { provider: "openai", model: "gpt-stub", baseUrl: stub.baseUrl },
          },
        }),
      );
      const tasks = join(dir.path, "tasks.jsonl");
      writeFileSync(
        tasks,
        [
          JSON.stringify({
            id: "sum",
            task: "What is 40 + 2? Use the calculator.",
            expect: { contains: ["42"] },
          }),
          JSON.stringify({
            id: "wrong",
            task: "What is 40 + 2, in words?",
            expect: { contains: ["forty-two"] },
          }),
        ].join("\n"),
      );
      const run = await runCliAsync(dir.path, ["eval", tasks, "--config", config, "--modes", "direct,code"]);
      assert.equal(run.code, 1, "a failed task makes the exit code 1");
      assert.match(run.stderr, /2 tasks × direct, code with gpt-stub/);
      assert.match(run.stderr, /direct sum: passed/);
      assert.match(run.stderr, /code sum: passed/);
      assert.match(run.stderr, /code wrong: failed/);
      assert.match(run.stdout, /\| direct .*\|/);
      assert.match(run.stdout, /\| code .*\|/);
      // Direct mode offered the upstream tool itself; code mode the meta-tools.
      const offered = stub.requests.map((request) =>
        (request.body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name),
      );
      assert.ok(offered.some((names) => names.includes("scripted__add") && !names.includes("execute_code")));
      assert.ok(offered.some((names) => names.includes("execute_code") && !names.includes("scripted__add")));
    } finally {
      await stub.close();
    }
  });

  test("a bad tasks file names the line and the field", async () => {
    const tasks = join(dir.path, "bad.jsonl");
    writeFileSync(tasks, `${JSON.stringify({ id: "a", task: "x", expect: {} })}\n{"id": "b"}\n`);
    const config = join(dir.path, "no-llm.json");
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const run = await runCliAsync(dir.path, ["eval", tasks, "--config", config]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /bad\.jsonl:2: task/);
  });
});
