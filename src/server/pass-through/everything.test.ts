// Pass-through of a real upstream: @modelcontextprotocol/server-everything over stdio,
// offered on a 2.x McpServer front end, driven by a 2.x Client over an in-memory pair.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { InMemoryTransport, McpServer, ProtocolError } from "@modelcontextprotocol/server";
import { z } from "zod";
import { clientSource } from "./client-source.fixture.ts";
import { registerPassThrough } from "./register.ts";
import type { PassThroughSource } from "./source.ts";

const EVERYTHING = join(process.cwd(), "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

async function frontEnd(sources: PassThroughSource[], warnings: string[] = []) {
  const server = new McpServer({ name: "gateway", version: "0" });
  server.registerTool(
    "execute_code",
    { description: "run a program", inputSchema: z.object({ code: z.string() }) },
    async ({ code }) => ({ content: [{ type: "text", text: `ran ${code.length} chars` }] }),
  );
  const registration = registerPassThrough(server, sources, { warn: (message) => warnings.push(message) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "front", version: "0" });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
      await registration.dispose();
    },
  };
}

describe("pass-through of server-everything (stdio)", () => {
  let upstream: Client;
  let direct: Awaited<ReturnType<Client["listTools"]>>["tools"];
  let front: Awaited<ReturnType<typeof frontEnd>>;
  let bare: Awaited<ReturnType<typeof frontEnd>>;
  const warnings: string[] = [];

  before(async () => {
    upstream = new Client({ name: "gateway-upstream", version: "0" });
    await upstream.connect(
      new StdioClientTransport({ command: process.execPath, args: [EVERYTHING], stderr: "ignore" }),
    );
    direct = (await upstream.listTools()).tools;
    front = await frontEnd([clientSource("everything", "everything__", upstream)], warnings);
    bare = await frontEnd([clientSource("everything", "", upstream)]);
  });

  after(async () => {
    await front?.close();
    await bare?.close();
    await upstream?.close();
  });

  it("lists the meta-tools, then every upstream tool prefixed, definitions otherwise unchanged", async () => {
    const { tools, nextCursor } = await front.client.listTools();
    assert.equal(nextCursor, undefined);
    assert.equal(tools[0]?.name, "execute_code");
    assert.deepEqual(
      tools.slice(1).map((tool) => tool.name),
      direct.map((tool) => `everything__${tool.name}`),
    );
    for (const [index, tool] of direct.entries()) {
      assert.deepEqual({ ...tools[index + 1], name: tool.name }, tool);
    }
    const { tools: plain } = await bare.client.listTools();
    assert.deepEqual(plain.slice(1), direct);
  });

  it("routes calls with the prefix stripped and returns every content type unchanged", async () => {
    const call = (name: string, args: Record<string, unknown>) =>
      front.client.callTool({ name, arguments: args });
    assert.deepEqual(
      await call("everything__echo", { message: "hi" }),
      await upstream.callTool({ name: "echo", arguments: { message: "hi" } }),
    );
    assert.deepEqual((await call("execute_code", { code: "1+1" })).content, [
      { type: "text", text: "ran 3 chars" },
    ]);

    const image = await call("everything__get-tiny-image", {});
    assert.ok(
      image.content.some(
        (block) => block.type === "image" && block.mimeType === "image/png" && block.data.length > 100,
      ),
    );

    const links = await call("everything__get-resource-links", { count: 2 });
    assert.deepEqual(links, await upstream.callTool({ name: "get-resource-links", arguments: { count: 2 } }));
    assert.equal(links.content.filter((block) => block.type === "resource_link").length, 2);

    const embedded = await call("everything__get-resource-reference", {
      resourceType: "Text",
      resourceId: 2,
    });
    const resource = embedded.content.find((block) => block.type === "resource");
    assert.equal(resource?.type === "resource" && resource.resource.uri, "demo://resource/dynamic/text/2");

    const structured = await call("everything__get-structured-content", { location: "Chicago" });
    assert.deepEqual(
      structured,
      await upstream.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } }),
    );
    assert.equal(typeof (structured.structuredContent as { temperature?: unknown }).temperature, "number");

    const plain = await bare.client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
    assert.match(JSON.stringify(plain.content), /5/);
  });

  it("passes an upstream's failure on as it came, and refuses names no one offers", async () => {
    const settle = (promise: Promise<unknown>) =>
      promise.then(
        (result) => ({ result }),
        (error: unknown) => ({ code: (error as { code?: unknown }).code, message: (error as Error).message }),
      );
    const bad = { a: "x" };
    const through = await settle(front.client.callTool({ name: "everything__get-sum", arguments: bad }));
    assert.deepEqual(through, await settle(upstream.callTool({ name: "get-sum", arguments: bad })));
    assert.match(JSON.stringify(through), /isError|-32602/);
    for (const name of ["everything__nope", "get-sum"]) {
      const refused = await settle(front.client.callTool({ name, arguments: {} }));
      assert.deepEqual(refused, { code: -32602, message: `Tool ${name} not found` });
    }
  });

  it("offers prompts prefixed, with their arguments, and gets them from the upstream", async () => {
    const { prompts } = await front.client.listPrompts();
    assert.deepEqual(
      prompts.map((prompt) => prompt.name),
      (await upstream.listPrompts()).prompts.map((prompt) => `everything__${prompt.name}`),
    );
    const args = { city: "Lyon", state: "Rhône" };
    const got = await front.client.getPrompt({ name: "everything__args-prompt", arguments: args });
    assert.deepEqual(got, await upstream.getPrompt({ name: "args-prompt", arguments: args }));
    assert.match(JSON.stringify(got.messages), /Lyon/);
  });

  it("lists resources and templates under their own URIs and reads text and binary ones", async () => {
    const { resources } = await front.client.listResources();
    assert.deepEqual(resources, (await upstream.listResources()).resources);
    const { resourceTemplates } = await front.client.listResourceTemplates();
    assert.deepEqual(resourceTemplates, (await upstream.listResourceTemplates()).resourceTemplates);

    const listed = resources[0]?.uri ?? "";
    assert.deepEqual(
      await front.client.readResource({ uri: listed }),
      await upstream.readResource({ uri: listed }),
    );
    const text = await front.client.readResource({ uri: "demo://resource/dynamic/text/7" });
    assert.ok("text" in (text.contents[0] ?? {}));
    const blob = await front.client.readResource({ uri: "demo://resource/dynamic/blob/7" });
    assert.deepEqual(blob, await upstream.readResource({ uri: "demo://resource/dynamic/blob/7" }));
    assert.ok("blob" in (blob.contents[0] ?? {}));
    const missing = await front.client
      .readResource({ uri: "nothing://here" })
      .catch((error: unknown) => error);
    assert.ok(missing instanceof ProtocolError);
  });

  it("routes completions of a prefixed prompt's argument to the upstream, unprefixed", async () => {
    const argument = { name: "department", value: "Eng" };
    const completed = await front.client.complete({
      ref: { type: "ref/prompt", name: "everything__completable-prompt" },
      argument,
    });
    assert.deepEqual(
      completed,
      await upstream.complete({ ref: { type: "ref/prompt", name: "completable-prompt" }, argument }),
    );
    assert.ok(completed.completion.values.includes("Engineering"));
  });

  it("leaves out an upstream tool whose exposed name is taken by a meta-tool, and says so once", async () => {
    const clash = clientSource("everything", "", upstream);
    const renamed: PassThroughSource = {
      ...clash,
      tools: async () => [{ ...direct[0], name: "execute_code" } as (typeof direct)[0], ...direct],
    };
    const said: string[] = [];
    const gateway = await frontEnd([renamed, clientSource("other", "", upstream)], said);
    try {
      const { tools } = await gateway.client.listTools();
      assert.equal(tools.filter((tool) => tool.name === "execute_code").length, 1);
      assert.equal(tools.length, 1 + direct.length, "the second server's same-named tools are all left out");
      await gateway.client.listTools();
      assert.equal(said.filter((line) => line.includes('"execute_code"')).length, 1);
      assert.ok(
        said.some((line) =>
          line.includes('tool "echo" of server "other" is left out: server "everything" already offers'),
        ),
      );
      const ran = await gateway.client.callTool({ name: "execute_code", arguments: { code: "x" } });
      assert.deepEqual(ran.content, [{ type: "text", text: "ran 1 chars" }], "the meta-tool keeps its name");
    } finally {
      await gateway.close();
    }
  });
});
