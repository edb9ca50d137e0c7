import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  lastToolResults,
  reply,
  ScriptedModel,
  text,
  toolUse,
  turnsScript,
} from "../../test/helpers/scripted-model.ts";
import { SCRIPTED_JS, tempDir } from "../../test/helpers/servers.ts";
import { Gateway } from "../gateway/gateway.ts";
import type { ModelRequest } from "../llm/types.ts";
import { createAgent } from "./create-agent.ts";
import { AgentError } from "./errors.ts";
import type { AgentEvent } from "./events.ts";

// The agent loop over a real gateway (the scripted MCP server upstream), driven by a scripted model.

describe("agent runner", () => {
  const dir = tempDir("agent");
  const gateway = new Gateway({
    config: {
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      toolscript: { storage: { dir: dir.path }, sandbox: { timeoutMs: 10_000 } },
    },
  });

  before(async () => {
    await gateway.start();
  });
  after(async () => {
    await gateway.close();
    dir.remove();
  });

  it("searches, runs one program calling a real tool, and answers from its result", async () => {
    const events: AgentEvent[] = [];
    const model = new ScriptedModel(
      turnsScript(
        reply([text("Let me look."), toolUse("search_tools", { query: "add two numbers" })], {
          inputTokens: 1000,
          outputTokens: 20,
        }),
        (request) => {
          const [found] = lastToolResults(request);
          assert.match(found?.content ?? "", /tools\.scripted\.add\(/);
          return reply(
            [
              toolUse("execute_code", {
                code: "const r = await tools.scripted.add({ a: 2, b: 3 });\nreturn { sum: r.sum };",
              }),
            ],
            { inputTokens: 1200, outputTokens: 40 },
          );
        },
        (request) => {
          const [ran] = lastToolResults(request);
          assert.equal(ran?.isError, undefined);
          const sum = /"sum":\s*(\d+)/.exec(ran?.content ?? "")?.[1];
          return reply([text(`The sum is ${sum}.`)], { inputTokens: 1300, outputTokens: 8 });
        },
      ),
    );
    const agent = createAgent({ gateway, model, onEvent: (event) => events.push(event) });
    try {
      const result = await agent.run("What is 2 + 3? Use the tools.");
      assert.equal(result.answer, "The sum is 5.");
      assert.equal(result.stopped, "answer");
      assert.equal(result.turns, 3);
      assert.deepEqual(result.usage, { requests: 3, inputTokens: 3500, outputTokens: 68 });
      assert.deepEqual(
        result.toolCalls.map(({ name, isError }) => ({ name, isError })),
        [
          { name: "search_tools", isError: false },
          { name: "execute_code", isError: false },
        ],
      );
      assert.ok(result.toolCalls.every((call) => call.resultChars > 0 && call.durationMs >= 0));
      assert.equal(result.error, undefined);

      // The model got the meta-tools under their own names, as MCP lists them, and no others.
      const first = model.requests[0] as ModelRequest;
      assert.deepEqual(first.tools?.map((tool) => tool.name).sort(), [
        "describe_tools",
        "execute_code",
        "list_tools",
        "search_tools",
      ]);
      const execute = first.tools?.find((tool) => tool.name === "execute_code");
      assert.match(
        execute?.description ?? "",
        /^- scripted \(13\)$/m,
        "execute_code's description lists the servers",
      );
      assert.deepEqual((execute?.inputSchema.required as string[] | undefined) ?? [], ["code"]);
      assert.match(first.system ?? "", /search_tools/);
      assert.doesNotMatch(first.system ?? "", /solve_task/, "solve_task is not offered by this gateway");
      assert.deepEqual(first.messages, [{ role: "user", content: [text("What is 2 + 3? Use the tools.")] }]);
      // The whole conversation goes back each turn: task, assistant turn, tool results.
      const third = model.requests[2] as ModelRequest;
      assert.deepEqual(
        third.messages.map((message) => `${message.role}:${message.content.map((b) => b.type).join(",")}`),
        [
          "user:text",
          "assistant:text,tool_use",
          "user:tool_result",
          "assistant:tool_use",
          "user:tool_result",
        ],
      );

      assert.deepEqual(
        events.map((event) => event.type),
        [
          "turn_started",
          "turn_finished",
          "tool_started",
          "tool_finished",
          "turn_started",
          "turn_finished",
          "tool_started",
          "tool_finished",
          "turn_started",
          "turn_finished",
          "answer",
        ],
      );
      const started = events.find((event) => event.type === "tool_started" && event.name === "execute_code");
      assert.equal(
        started?.type === "tool_started" && started.summary,
        "const r = await tools.scripted.add({ a: 2, b: 3 }); (+1 lines)",
      );
      const finished = events.find(
        (event) => event.type === "tool_finished" && event.name === "execute_code",
      );
      assert.ok(
        finished?.type === "tool_finished" && (finished.resultTokens ?? 0) > 0,
        "result tokens counted",
      );
    } finally {
      await agent.close();
    }
  });

  it("runs the tool uses of one turn in order and returns all their results in one user turn", async () => {
    let echo: ReturnType<typeof toolUse> | undefined;
    let log: ReturnType<typeof toolUse> | undefined;
    const model = new ScriptedModel(
      turnsScript(
        () => {
          echo = toolUse("execute_code", { code: 'return await tools.scripted.echo({ message: "first" });' });
          log = toolUse("execute_code", { code: "return (await tools.scripted.call_log({})).slice(-2);" });
          return reply([echo, log]);
        },
        (request) => {
          const results = lastToolResults(request);
          assert.deepEqual(
            results.map((result) => result.toolUseId),
            [echo?.id, log?.id],
          );
          assert.match(results[0]?.content ?? "", /first/);
          // The second program ran after the first: its call log ends with the first's echo.
          assert.match(results[1]?.content ?? "", /"echo",\s*"call_log"/);
          return reply([text("done")]);
        },
      ),
    );
    const agent = createAgent({ gateway, model });
    try {
      const result = await agent.run("echo, then read the log");
      assert.equal(result.answer, "done");
      assert.equal(result.toolCalls.length, 2);
      assert.equal(model.requests[1]?.messages.length, 3);
    } finally {
      await agent.close();
    }
  });

  it("sends a failed program and a tool it was not offered back as error results", async () => {
    const model = new ScriptedModel(
      turnsScript(
        reply([
          toolUse("execute_code", { code: "return await tools.scripted.fail({});" }),
          toolUse("save_skill", { name: "x", code: "export const x = 1;", description: "x" }),
        ]),
        (request) => {
          const [failed, refused] = lastToolResults(request);
          assert.equal(failed?.isError, true);
          assert.match(failed?.content ?? "", /this tool always fails/);
          assert.equal(refused?.isError, true);
          assert.match(refused?.content ?? "", /unknown tool "save_skill"; the tools are: /);
          return reply([text("It failed.")]);
        },
      ),
    );
    const agent = createAgent({ gateway, model });
    try {
      const result = await agent.run("call the failing tool");
      assert.equal(result.stopped, "answer");
      assert.deepEqual(
        result.toolCalls.map((call) => [call.name, call.isError]),
        [
          ["execute_code", true],
          ["save_skill", true],
        ],
      );
      assert.equal(gateway.skills.get("x", "default"), undefined, "the refused tool never ran");
    } finally {
      await agent.close();
    }
  });

  it("stops at the turn limit without running the last turn's tools", async () => {
    const model = new ScriptedModel(() => reply([text("Still looking."), toolUse("list_tools", {})]));
    const agent = createAgent({ gateway, model, maxTurns: 3 });
    try {
      const result = await agent.run("never done");
      assert.equal(result.stopped, "max_turns");
      assert.equal(result.turns, 3);
      assert.equal(result.usage.requests, 3);
      assert.equal(result.toolCalls.length, 2);
      assert.equal(
        result.answer,
        "Still looking.\n\n(stopped: the limit of 3 model turns was reached before an answer)",
      );
    } finally {
      await agent.close();
    }
  });

  it("ends with the model's error when a request fails", async () => {
    const failure = Object.assign(new Error("HTTP 529 from the provider: overloaded"), { code: "llm.http" });
    const model = new ScriptedModel(
      turnsScript(reply([toolUse("list_tools", {})]), () => {
        throw failure;
      }),
    );
    const agent = createAgent({ gateway, model });
    try {
      const result = await agent.run("anything");
      assert.equal(result.stopped, "error");
      assert.equal(result.turns, 2);
      assert.equal(result.usage.requests, 1);
      assert.ok(result.error instanceof AgentError);
      assert.equal(result.error.code, "agent.model_failed");
      assert.equal(result.error.cause, failure);
      assert.deepEqual(result.error.data, { turn: 2, provider: "anthropic", model: "scripted-model" });
      assert.equal(
        result.answer,
        "(stopped: the model request failed: HTTP 529 from the provider: overloaded)",
      );
    } finally {
      await agent.close();
    }
  });

  it("refuses a turn limit below 1 and runs after close", async () => {
    const model = new ScriptedModel(() => reply([text("hi")]));
    assert.throws(() => createAgent({ gateway, model, maxTurns: 0 }), { code: "agent.invalid_option" });
    const agent = createAgent({ gateway, model });
    assert.equal((await agent.run("hi")).answer, "hi");
    await agent.close();
    await assert.rejects(agent.run("again"), { code: "agent.closed" });
  });
});
