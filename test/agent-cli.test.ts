import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { startAnthropicStub } from "./helpers/model-stubs/anthropic-messages-stub.ts";
import { startOpenAIStub } from "./helpers/model-stubs/openai-chat-stub.ts";
import { lastToolResults, type StubScript } from "./helpers/model-stubs/script.ts";
import { runCliAsync } from "./helpers/run-cli-async.ts";
import { SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

const PROGRAM = "const { sum } = await tools.scripted.add({ a: 40, b: 2 });\nreturn { sum };";

/** The conversation a model has in code mode: one program, then the answer read off its result. */
const codeModeScript: StubScript = ({ body, index }) => {
  const results = lastToolResults(body);
  if (results.length === 0 && index === 0)
    return {
      toolUses: [{ name: "execute_code", input: { code: PROGRAM } }],
      usage: { inputTokens: 1000, outputTokens: 40 },
    };
  const sum = /"sum":\s?(\d+)/.exec(results.map((result) => result.content).join("\n"))?.[1] ?? "unknown";
  return { text: `The sum is ${sum}.`, usage: { inputTokens: 1200, outputTokens: 10 } };
};

function config(dir: string, llm: Record<string, unknown>): string {
  const file = join(dir, "toolscript.config.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      toolscript: { storage: { dir: join(dir, "data") }, llm },
    }),
  );
  return file;
}

describe("toolscript agent", () => {
  const dir = tempDir("agent-cli");
  after(() => dir.remove());

  for (const provider of ["anthropic", "openai"] as const) {
    test(`over ${provider}: runs execute_code, prints the answer on stdout, progress and cost on stderr`, async () => {
      const stub = await (provider === "anthropic" ? startAnthropicStub : startOpenAIStub)(codeModeScript);
      try {
        const file = config(dir.path, {
          provider,
          model: `${provider}-stub-model`,
          baseUrl: stub.baseUrl,
          apiKey: "sk-test",
          pricing: { inputPerMTok: 3, outputPerMTok: 15 },
        });
        const run = await runCliAsync(dir.path, [
          "agent",
          "What is 40 + 2? Use the calculator.",
          "--config",
          file,
        ]);
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.stdout, "The sum is 42.\n");
        assert.match(run.stderr, /execute_code/);
        assert.match(
          run.stderr,
          /answered: 2 turns, 1 tool call, 2,200 tokens in \/ 50 out over 2 requests, .*\$0\.0073/,
        );
        assert.equal(stub.requests.length, 2);
        const tools = stub.requests[0]?.body.tools as Array<{ name?: string; function?: { name: string } }>;
        const names = tools.map((tool) => tool.name ?? tool.function?.name).sort();
        assert.deepEqual(names, [
          "describe_tools",
          "execute_code",
          "list_tools",
          "search_tools",
          "solve_task",
        ]);
        assert.match(
          JSON.stringify(stub.requests[1]?.body.messages),
          /\\"sum\\":\s?42|"sum":\s?42|sum.{0,6}42/,
        );
      } finally {
        await stub.close();
      }
    });
  }

  test("Ctrl-C cancels the program in flight: the answer says so, exit code 130", async () => {
    const endless = "while (true) await tools.scripted.echo({ message: 'tick' });";
    const stub = await startAnthropicStub(({ index }) =>
      index === 0
        ? { toolUses: [{ name: "execute_code", input: { code: endless } }] }
        : { text: "never reached" },
    );
    try {
      const file = config(dir.path, {
        provider: "anthropic",
        model: "m",
        baseUrl: stub.baseUrl,
        apiKey: "k",
      });
      const run = await runCliAsync(dir.path, ["agent", "loop forever", "--config", file], {
        interruptWhen: /execute_code/,
      });
      assert.equal(run.code, 130, run.stderr);
      assert.match(run.stdout, /cancelled/);
      assert.match(run.stderr, /cancelling/);
      assert.equal(stub.requests.length, 1, "no model request after the cancel");
    } finally {
      await stub.close();
    }
  });

  test("without toolscript.llm it says what to add; a bad --max-turns is refused", async () => {
    const file = join(dir.path, "no-llm.json");
    writeFileSync(
      file,
      JSON.stringify({ mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } } }),
    );
    const run = await runCliAsync(dir.path, ["agent", "anything", "--config", file]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /toolscript agent needs a model: add "llm"/);
    const bad = await runCliAsync(dir.path, ["agent", "anything", "--config", file, "--max-turns", "0"]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--max-turns expects a whole number >= 1, got "0"/);
  });

  test("a missing API key names the setting and the variable", async () => {
    const file = config(dir.path, { provider: "anthropic", model: "m" });
    const run = await runCliAsync(dir.path, ["agent", "anything", "--config", file]);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /toolscript\.llm\.apiKey/);
    assert.match(run.stderr, /ANTHROPIC_API_KEY/);
  });
});
