import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { type ClientCapabilities, InMemoryTransport } from "@modelcontextprotocol/server";
import { Gateway } from "../src/gateway/gateway.ts";
import { createMcpServer } from "../src/server/create-mcp-server.ts";
import { startAnthropicStub } from "./helpers/model-stubs/anthropic-messages-stub.ts";
import type { ModelStub } from "./helpers/model-stubs/script.ts";
import { SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

const MODULE = [
  "```ts",
  "type Args = { a: number; b: number };",
  "export default async function (args: Args) {",
  "  const { sum } = await tools.scripted.add({ a: args.a, b: args.b });",
  "  return { squared: sum * sum };",
  "}",
  "```",
].join("\n");
const TASK = "Add two numbers with the calculator and square the sum";

interface Answer {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

async function connect(
  gateway: Gateway,
  capabilities: ClientCapabilities = {},
  handlers: (client: Client) => void = () => {},
): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(gateway).connect(serverSide);
  const client = new Client({ name: "solve-test", version: "1" }, { capabilities });
  handlers(client);
  await client.connect(clientSide);
  return client;
}

const solve = (client: Client, args: Record<string, unknown>) =>
  client.callTool({ name: "solve_task", arguments: args }) as Promise<Answer>;

describe("solve_task over MCP with toolscript.llm (Anthropic API on a loopback stub)", () => {
  const dir = tempDir("solve-mcp");
  let stub: ModelStub;
  let gateway: Gateway;
  const config = () => ({
    mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
    toolscript: {
      storage: { dir: dir.path },
      sandbox: { poolSize: 1 },
      llm: {
        provider: "anthropic",
        model: "claude-stub",
        baseUrl: stub.baseUrl,
        apiKey: "sk-test",
        maxRetries: 0,
      },
    },
  });

  before(async () => {
    stub = await startAnthropicStub(() => ({ text: MODULE, usage: { inputTokens: 321, outputTokens: 54 } }));
    gateway = new Gateway({ config: config() });
    await gateway.start();
  });
  after(async () => {
    await gateway.close();
    await stub.close();
    dir.remove();
  });

  test("listed with a model; generates once over the real API protocol, then reuses, also after a restart", async () => {
    let client = await connect(gateway);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes("solve_task"));
    const first = await solve(client, { task_description: TASK, arguments: { a: 2, b: 3 } });
    assert.equal(first.isError, undefined, JSON.stringify(first.content));
    assert.match(
      first.content[0]?.text ?? "",
      /^Generated gen-add-two-numbers-calculator-[0-9a-f]{6} with claude-stub/,
    );
    assert.match(first.content[0]?.text ?? "", /"squared":\s?25/);
    const solvedBy = first.structuredContent?.solvedBy as Record<string, unknown>;
    assert.equal(solvedBy.how, "generated");
    assert.deepEqual(solvedBy.generated, {
      provider: "anthropic",
      model: "claude-stub",
      repaired: false,
      usage: { inputTokens: 321, outputTokens: 54 },
    });
    assert.equal(stub.requests.length, 1);
    const body = stub.requests[0]?.body;
    assert.equal(body.model, "claude-stub");
    assert.match(body.system, /default export/);
    assert.match(JSON.stringify(body.messages), /square the sum/);

    const again = await solve(client, { task_description: TASK, arguments: { a: 1, b: 1 } });
    assert.match(again.content[0]?.text ?? "", /^Reused skill gen-/);
    assert.deepEqual(again.structuredContent?.result, { squared: 4 });
    assert.equal(stub.requests.length, 1, "no second model request");
    await client.close();

    await gateway.close();
    gateway = new Gateway({ config: config() });
    await gateway.start();
    client = await connect(gateway);
    const restarted = await solve(client, { task_description: TASK, arguments: { a: 3, b: 3 } });
    assert.deepEqual(restarted.structuredContent?.result, { squared: 36 });
    assert.equal(stub.requests.length, 1, "reused from the store after a restart");
    await client.close();
  });

  test("a model error comes back as the tool's error, and the gateway keeps serving", async () => {
    const failing = await startAnthropicStub(() => ({ status: 401, message: "invalid x-api-key" }));
    const other = tempDir("solve-mcp-401");
    const broken = new Gateway({
      config: {
        mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
        toolscript: {
          storage: { dir: other.path },
          llm: {
            provider: "anthropic",
            model: "claude-stub",
            baseUrl: failing.baseUrl,
            apiKey: "bad",
            maxRetries: 0,
          },
        },
      },
    });
    try {
      await broken.start();
      const client = await connect(broken);
      const answer = await solve(client, {
        task_description: "Reverse the words of a sentence",
        arguments: { text: "a b" },
      });
      assert.equal(answer.isError, true);
      assert.match(answer.content[0]?.text ?? "", /invalid x-api-key/);
      assert.equal((answer.structuredContent?.error as { code?: string } | undefined)?.code, "llm.auth");
      const listed = await client.listTools();
      assert.ok(listed.tools.length >= 5);
      await client.close();
    } finally {
      await broken.close();
      await failing.close();
      other.remove();
    }
  });
});

describe("solve_task without toolscript.llm: the client's model through MCP sampling", () => {
  const dir = tempDir("solve-sampling");
  let gateway: Gateway;
  before(async () => {
    gateway = new Gateway({
      config: {
        mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
        toolscript: { storage: { dir: dir.path }, sandbox: { poolSize: 1 } },
      },
    });
    await gateway.start();
  });
  after(async () => {
    await gateway.close();
    dir.remove();
  });

  test("a client without sampling is not offered solve_task", async () => {
    const client = await connect(gateway);
    assert.ok(!(await client.listTools()).tools.some((tool) => tool.name === "solve_task"));
    await client.close();
  });

  test("a client that declared sampling is offered it, and its model writes the tool", async () => {
    const asked: unknown[] = [];
    const client = await connect(gateway, { sampling: {} }, (c) =>
      c.setRequestHandler("sampling/createMessage", async (request) => {
        asked.push(request.params);
        return { role: "assistant", content: { type: "text", text: MODULE }, model: "client-model" };
      }),
    );
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === "solve_task"));
    const answer = await solve(client, { task_description: TASK, arguments: { a: 4, b: 1 } });
    assert.equal(answer.isError, undefined, JSON.stringify(answer.content));
    assert.deepEqual(answer.structuredContent?.result, { squared: 25 });
    assert.equal(asked.length, 1);
    assert.match(JSON.stringify(asked[0]), /square the sum/);
    await client.close();
  });
});

describe("solve_task with toolscript.llm.approveGenerated", () => {
  const dir = tempDir("solve-approve");
  let stub: ModelStub;
  let gateway: Gateway;
  before(async () => {
    stub = await startAnthropicStub(() => ({ text: MODULE }));
    gateway = new Gateway({
      config: {
        mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
        toolscript: {
          storage: { dir: dir.path },
          sandbox: { poolSize: 1 },
          llm: {
            provider: "anthropic",
            model: "m",
            baseUrl: stub.baseUrl,
            apiKey: "k",
            approveGenerated: true,
          },
        },
      },
    });
    await gateway.start();
  });
  after(async () => {
    await gateway.close();
    await stub.close();
    dir.remove();
  });

  test("the first run waits for a person: declined, nothing runs or is saved; accepted, it runs", async () => {
    let accept = false;
    const questions: string[] = [];
    const client = await connect(gateway, { elicitation: { form: {} } }, (c) =>
      c.setRequestHandler("elicitation/create", async (request) => {
        questions.push(String((request.params as { message: string }).message));
        return accept ? { action: "accept", content: { approve: true } } : { action: "decline" };
      }),
    );
    const declined = await solve(client, { task_description: TASK, arguments: { a: 1, b: 2 } });
    assert.equal(declined.isError, true);
    assert.equal(
      (declined.structuredContent?.error as { code?: string } | undefined)?.code,
      "solve.not_approved",
    );
    assert.match(questions[0] ?? "", /tools\.scripted\.add/, "the person sees the code");
    assert.equal(gateway.skills.list().length, 0);
    accept = true;
    const accepted = await solve(client, { task_description: TASK, arguments: { a: 1, b: 2 } });
    assert.deepEqual(accepted.structuredContent?.result, { squared: 9 });
    await client.close();
  });

  test("a client that cannot be asked gets a clear refusal", async () => {
    const client = await connect(gateway);
    const answer = await solve(client, {
      task_description: "Add two numbers and cube the sum",
      arguments: { a: 1, b: 2 },
    });
    assert.equal(answer.isError, true);
    assert.match(answer.content[0]?.text ?? "", /needs an approval .* cannot be asked/);
    await client.close();
  });
});
