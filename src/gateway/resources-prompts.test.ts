import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { EVERYTHING_JS, tempDir } from "../../test/helpers/servers.ts";
import { Gateway } from "./gateway.ts";
import type { ExecuteResponse } from "./types.ts";

/**
 * Programs read upstream resources and prompts: server-everything over stdio
 * (resources with text and base64 blobs, resource templates, a tool returning
 * resource_link results, prompts with arguments), in both TypeScript tiers and
 * in Python. A second copy of it, "locked", is denied by policy.
 */
function gatewayFor(runtime: "isolate" | "process", dir: string): Gateway {
  const everything = { command: process.execPath, args: [EVERYTHING_JS, "stdio"] };
  return new Gateway({
    config: {
      mcpServers: { everything, locked: everything },
      toolscript: {
        sandbox: { runtime, timeoutMs: 20_000, memoryMb: 128, maxToolCalls: 40, python: { pool: 1 } },
        policy: { deny: ["locked"] },
        storage: { dir },
      },
    },
  });
}

function ok(response: ExecuteResponse): unknown {
  assert.equal(response.error, undefined, JSON.stringify(response.error));
  return response.result;
}

const TS_PROGRAM = `
const links = await tools.everything["get-resource-links"]({ count: 2 });
const link = links.find((part) => part.type === "resource_link");
const linked = await resources.read(link.uri);
const blob = await resources.read("demo://resource/dynamic/blob/7");
const text = await resources.read("demo://resource/dynamic/text/3");
const listed = await resources.list("everything");
const templates = await resources.templates("everything");
const prompt = await prompts.get("everything", "args-prompt", { city: "Oslo", state: "Viken" });
const errors = {};
for (const [key, run] of Object.entries({
  unknownUri: () => resources.read("nowhere://nothing"),
  unknownServer: () => resources.list("nosuch"),
  deniedServer: () => resources.read("demo://resource/dynamic/text/1", { server: "locked" }),
  deniedPrompt: () => prompts.get("locked", "simple-prompt"),
})) {
  try { await run(); errors[key] = "no error"; } catch (error) { errors[key] = error.name + ": " + error.message; }
}
return {
  link: link.uri,
  linked: { uri: linked.uri, server: linked.server, isBytes: linked.bytes instanceof Uint8Array, isText: typeof linked.text },
  blob: { mimeType: blob.mimeType, bytes: blob.bytes instanceof Uint8Array, text: new TextDecoder().decode(blob.bytes) },
  text: { text: text.text, mimeType: text.mimeType, contents: text.contents.length },
  listed: listed.map((entry) => entry.server + " " + entry.uri),
  templates: templates.map((entry) => entry.uriTemplate),
  prompt: prompt.messages.map((message) => message.content.text),
  errors,
};`;

for (const runtime of ["isolate", "process"] as const) {
  describe(`resources and prompts in TypeScript programs (${runtime} tier)`, () => {
    const dir = tempDir(`resources-${runtime}`);
    const gateway = gatewayFor(runtime, dir.path);
    before(() => gateway.start());
    after(async () => {
      await gateway.close();
      dir.remove();
    });

    test("a resource_link from a tool result, a blob as bytes, listings, a prompt with arguments, and clear errors", async () => {
      const response = await gateway.execute({ code: TS_PROGRAM, session: "ts" });
      const result = ok(response) as Record<string, unknown> & { errors: Record<string, string> };
      assert.match(String(result.link), /^demo:\/\/resource\/dynamic\/(text|blob)\/1$/);
      assert.equal((result.linked as { server: string }).server, "everything");
      assert.equal((result.linked as { uri: string }).uri, result.link);
      assert.equal((result.blob as { bytes: boolean }).bytes, true);
      assert.match((result.blob as { text: string }).text, /^Resource 7: This is a base64 blob/);
      assert.deepEqual(result.text, {
        text: (result.text as { text: string }).text,
        mimeType: "text/plain",
        contents: 1,
      });
      assert.match((result.text as { text: string }).text, /Resource 3/);
      assert.ok(
        (result.listed as string[]).includes("everything demo://resource/static/document/features.md"),
      );
      assert.deepEqual(result.templates, [
        "demo://resource/dynamic/text/{resourceId}",
        "demo://resource/dynamic/blob/{resourceId}",
      ]);
      assert.deepEqual(result.prompt, ["What's weather in Oslo, Viken?"]);
      // Not found: says which servers were asked, and that the denied one was not.
      assert.match(
        result.errors.unknownUri ?? "",
        /^ToolError: resources\.read: no server has nowhere:\/\/nothing \(asked everything; not asked.*locked/,
      );
      assert.equal(
        result.errors.unknownServer,
        'ToolError: resources.list: no server "nosuch"; servers: everything, locked',
      );
      assert.equal(
        result.errors.deniedServer,
        "PolicyError: refused: locked/resources/read is denied by policy.deny",
      );
      assert.equal(
        result.errors.deniedPrompt,
        "PolicyError: refused: locked/prompts/get is denied by policy.deny",
      );
      // Every request to a server counts as a call of the execution.
      assert.ok(response.toolCalls >= 7, `${response.toolCalls} calls`);

      await gateway.flushAudit();
      const audit = (await gateway.store?.audit.list({ session: "ts", limit: 100 })) ?? [];
      const calls = audit
        .filter((record) => record.kind !== "execution")
        .map((record) => `${record.server}/${record.tool} ${record.outcome}`);
      for (const expected of [
        "everything/get-resource-links ok",
        "everything/resources/read ok",
        "everything/resources/list ok",
        "everything/resources/templates/list ok",
        "everything/prompts/get ok",
        "locked/resources/read policy.denied",
        "locked/prompts/get policy.denied",
      ]) {
        assert.ok(calls.includes(expected), `${expected} in ${calls.join(", ")}`);
      }
    });

    test("a link one execution got is read from the same server by the next one of its session", async () => {
      const first = await gateway.execute({
        code: 'const links = await tools.everything["get-resource-links"]({ count: 3 }); return links.filter((part) => part.type === "resource_link").map((part) => part.uri)',
        session: "links",
      });
      const uris = ok(first) as string[];
      assert.equal(uris.length, 3);
      const second = await gateway.execute({
        code: `const read = await resources.read(${JSON.stringify(uris[2])}); return [read.server, read.uri]`,
        session: "links",
      });
      assert.deepEqual(ok(second), ["everything", uris[2]]);
      // Only the one read: the remembered server is asked directly, nothing else is listed or tried.
      assert.equal(second.toolCalls, 1);
    });

    test("the per-execution call limit (here 40) counts resource reads", async () => {
      const response = await gateway.execute({
        code: `for (let i = 0; i < 100; i++) {
  try { await resources.read("demo://resource/static/document/features.md", { server: "everything" }); }
  catch (error) { return [i, error.name, error.message]; }
}`,
        session: "limit",
      });
      assert.deepEqual(ok(response), [40, "LimitError", "this execution reached its limit of 40 tool calls"]);
    });
  });
}

describe("resources and prompts in Python programs", () => {
  const dir = tempDir("resources-python");
  const gateway = gatewayFor("isolate", dir.path);
  before(() => gateway.start());
  after(async () => {
    await gateway.close();
    dir.remove();
  });

  test("resource_link, blob as bytes, listings, prompts.get with keyword arguments, and errors", async () => {
    const response = await gateway.execute({
      language: "python",
      session: "py",
      timeoutMs: 20_000,
      code: `
links = await tools.everything["get-resource-links"](count=2)
link = next(part for part in links if isinstance(part, dict) and part.get("type") == "resource_link")
linked = await resources.read(link["uri"])
blob = await resources.read("demo://resource/dynamic/blob/5")
listed = await resources.list("everything")
templates = await resources.templates("everything")
prompt = await prompts.get("everything", "args-prompt", city="Bergen")
errors = {}
try:
    await resources.read("nowhere://nothing")
except ToolError as error:
    errors["unknown_uri"] = str(error)
try:
    await prompts.get("nosuch", "x")
except ToolError as error:
    errors["unknown_server"] = str(error)
try:
    await resources.list("locked")
except PolicyError as error:
    errors["denied"] = str(error)
result = {
    "linked": [linked["server"], linked["uri"] == link["uri"]],
    "blob": [type(blob["bytes"]).__name__, blob["bytes"].decode()[:10]],
    "listed": len(listed) > 0 and all(entry["server"] == "everything" for entry in listed),
    "templates": [entry["uriTemplate"] for entry in templates],
    "prompt": [message["content"]["text"] for message in prompt["messages"]],
    "errors": errors,
}
`,
    });
    const result = ok(response) as Record<string, unknown> & { errors: Record<string, string> };
    assert.deepEqual(result.linked, ["everything", true]);
    assert.deepEqual(result.blob, ["bytes", "Resource 5"]);
    assert.equal(result.listed, true);
    assert.deepEqual(result.templates, [
      "demo://resource/dynamic/text/{resourceId}",
      "demo://resource/dynamic/blob/{resourceId}",
    ]);
    assert.deepEqual(result.prompt, ["What's weather in Bergen?"]);
    assert.match(result.errors.unknown_uri ?? "", /no server has nowhere:\/\/nothing \(asked everything/);
    assert.match(result.errors.unknown_server ?? "", /no server "nosuch"/);
    assert.equal(result.errors.denied, "refused: locked/resources/list is denied by policy.deny");
  });
});
