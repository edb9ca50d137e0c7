import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { SCRIPTED_JS, tempDir } from "../../test/helpers/servers.ts";
import { Gateway } from "../gateway/gateway.ts";
import type { ModelClient, ModelRequest, ModelResponse } from "../llm/types.ts";
import { SolveError } from "./errors.ts";

/** A model that answers from a list, records what it was asked, and fails when asked once too often. */
function listModel(answers: string[]): ModelClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    provider: "anthropic",
    model: "scripted-model",
    requests,
    async complete(request): Promise<ModelResponse> {
      requests.push(structuredClone(request));
      const text = answers[requests.length - 1];
      if (text === undefined) throw new Error(`the model was asked ${requests.length} times`);
      return {
        content: [{ type: "text", text }],
        stopReason: "end_turn",
        usage: { inputTokens: 100, outputTokens: 50 },
        model: "scripted-model-1",
      };
    },
  };
}

const ADD_AND_DOUBLE = [
  "Here is the module:",
  "```ts",
  "type Args = { a: number; b: number };",
  "export default async function (args: Args) {",
  "  const { sum } = await tools.scripted.add({ a: args.a, b: args.b });",
  "  return { doubled: sum * 2 };",
  "}",
  "```",
].join("\n");

const TASK = "Add two numbers with the calculator, then double the sum";

describe("solve_task", () => {
  const dir = tempDir("solve-task");
  const config = {
    mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
    toolscript: { storage: { dir: dir.path }, sandbox: { poolSize: 1 } },
  };
  let gateway: Gateway;
  before(async () => {
    gateway = new Gateway({ config });
    await gateway.start();
  });
  after(async () => {
    await gateway.close();
    dir.remove();
  });

  test("no tool fits: the model writes one, it is checked, run, saved as generated, and its answer returned", async () => {
    const model = listModel([ADD_AND_DOUBLE]);
    const solved = await gateway.solveTask({ task: TASK, args: { a: 2, b: 3 }, model });
    assert.equal(solved.how, "generated");
    assert.equal(solved.kind, "skill");
    assert.equal(solved.execution.error, undefined);
    assert.deepEqual(solved.execution.result, { doubled: 10 });
    assert.equal(solved.execution.toolCalls, 1);
    assert.deepEqual(solved.generated, {
      provider: "anthropic",
      model: "scripted-model-1",
      repaired: false,
      usage: { inputTokens: 100, outputTokens: 50 },
    });
    // The model was told the task, the arguments' type, and the declaration of the tool search found.
    const asked = JSON.stringify(model.requests[0]);
    assert.match(asked, /Add two numbers with the calculator/);
    assert.match(asked, /type Args = \{ a: number; b: number \}/);
    assert.match(asked, /tools\.scripted\.add|add\(/);
    const saved = gateway.skills.get(solved.name);
    assert.equal(saved?.origin?.kind, "generated");
    assert.equal(saved?.origin?.task, TASK);
    assert.deepEqual(saved?.origin?.argNames, ["a", "b"]);
    assert.equal(saved?.description, TASK);
    assert.ok(saved?.origin && saved.origin.expiresAt > Date.now() + 29 * 24 * 3600 * 1000);
    // The model request is in the audit log: provider, model, tokens, what asked.
    await gateway.flushAudit();
    const calls = ((await gateway.store?.audit.list()) ?? []).filter(
      (record) => record.kind === "model_call",
    );
    assert.equal(calls.length, 1);
    assert.equal(calls[0]?.server, "anthropic");
    assert.equal(calls[0]?.tool, "scripted-model-1");
    assert.equal(calls[0]?.outcome, "ok");
    assert.deepEqual(calls[0]?.detail, {
      purpose: "solve_task",
      inputTokens: 100,
      outputTokens: 50,
      stopReason: "end_turn",
    });
  });

  test("the same task again, other arguments: the generated tool runs without asking a model", async () => {
    const model = listModel([]);
    const solved = await gateway.solveTask({ task: `  ${TASK.toUpperCase()} `, args: { a: 5, b: 1 }, model });
    assert.equal(solved.how, "reused");
    assert.deepEqual(solved.execution.result, { doubled: 12 });
    assert.equal(model.requests.length, 0);
  });

  test("a task worded differently reuses the generated tool when it covers the task's words", async () => {
    const model = listModel([]);
    const matches = gateway.search("double the sum of two numbers added with the calculator", { limit: 3 });
    const generated = matches.find((match) => match.skill?.name.startsWith("gen-"));
    assert.ok(generated, "search finds the generated skill by its task");
    const solved = await gateway.solveTask({
      task: "double the sum of two numbers added with the calculator",
      args: { a: 1, b: 1 },
      model,
    });
    if (generated.result.score >= gateway.config.settings.solve.reuseSimilarity) {
      assert.equal(solved.how, "reused");
      assert.deepEqual(solved.execution.result, { doubled: 4 });
    }
    assert.equal(
      model.requests.length,
      0,
      "no model request either way: the paraphrase reuses or fails without one",
    );
  });

  test("a first answer that does not type-check gets one repair round with the compiler's words", async () => {
    const broken = ADD_AND_DOUBLE.replace("{ a: args.a, b: args.b }", "{ a: args.a, b: String(args.b) }");
    const model = listModel([broken, ADD_AND_DOUBLE.replace("sum * 2", "sum * 3")]);
    const solved = await gateway.solveTask({
      task: "Add two numbers, then triple the sum",
      args: { a: 1, b: 2 },
      model,
    });
    assert.equal(solved.how, "generated");
    assert.equal(solved.generated?.repaired, true);
    assert.deepEqual(solved.execution.result, { doubled: 9 });
    assert.equal(model.requests.length, 2);
    assert.match(JSON.stringify(model.requests[1]?.messages.at(-1)), /does not compile.*string/i);
  });

  test("a module that throws when run is repaired too; still failing: SolveError with the code and why, nothing saved", async () => {
    const throwing =
      "```ts\nexport default async function (args: { n: number }) {\n  throw new Error('no luck ' + args.n);\n}\n```";
    const model = listModel([throwing, throwing]);
    const task = "Compute something that never works out";
    await assert.rejects(
      gateway.solveTask({ task, args: { n: 7 }, model }),
      (error: unknown) =>
        error instanceof SolveError &&
        error.code === "solve.generation_failed" &&
        /no luck 7/.test(error.message) &&
        /throw new Error/.test(String(error.data.code)),
    );
    assert.equal(model.requests.length, 2);
    assert.match(
      JSON.stringify(model.requests[1]?.messages.at(-1)),
      /running it with the task's arguments failed/,
    );
    assert.equal(gateway.skills.list().filter((skill) => skill.description === task).length, 0);
  });

  test("an answer with no module is a failure the model is told about", async () => {
    const model = listModel(["I cannot do that.", ADD_AND_DOUBLE.replace("sum * 2", "sum + 100")]);
    const solved = await gateway.solveTask({
      task: "Add two numbers and add one hundred",
      args: { a: 1, b: 2 },
      model,
    });
    assert.deepEqual(solved.execution.result, { doubled: 103 });
    assert.match(JSON.stringify(model.requests[1]?.messages.at(-1)), /no TypeScript module/);
  });

  test("a module sent as a tool use's argument is found too", async () => {
    const code = ADD_AND_DOUBLE.split("\n").slice(2, -1).join("\n").replace("sum * 2", "sum - 1");
    const model: ModelClient = {
      provider: "openai",
      model: "tool-user",
      async complete() {
        return {
          content: [{ type: "tool_use", id: "t1", name: "write_module", input: { code } }],
          stopReason: "tool_use",
          usage: { inputTokens: 1, outputTokens: 1 },
          model: "tool-user",
        };
      },
    };
    const solved = await gateway.solveTask({
      task: "Add two numbers then subtract one",
      args: { a: 5, b: 5 },
      model,
    });
    assert.deepEqual(solved.execution.result, { doubled: 9 });
  });

  test("without a model and without a fitting tool: solve.no_model names toolscript.llm", async () => {
    await assert.rejects(
      gateway.solveTask({ task: "Translate a poem into Klingon verse", args: { poem: "x" } }),
      (error: unknown) =>
        error instanceof SolveError &&
        error.code === "solve.no_model" &&
        /toolscript\.llm/.test(error.message),
    );
  });

  test("bad requests: an empty task, arguments that are not an object", async () => {
    await assert.rejects(gateway.solveTask({ task: "  " }), { code: "solve.bad_request" });
    await assert.rejects(
      gateway.solveTask({ task: "x", args: [1, 2] as unknown as Record<string, unknown> }),
      /arguments: an object/,
    );
  });

  test("after a restart the generated tool is reused from the store, without a model", async () => {
    await gateway.close();
    gateway = new Gateway({ config });
    await gateway.start();
    const model = listModel([]);
    const solved = await gateway.solveTask({ task: TASK, args: { a: 10, b: 10 }, model });
    assert.equal(solved.how, "reused");
    assert.deepEqual(solved.execution.result, { doubled: 40 });
    assert.equal(model.requests.length, 0);
  });
});
