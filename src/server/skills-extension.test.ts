import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type Skill, SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import {
  ListSkillsResultSchema,
  ReadResourceDirectoryResultSchema,
} from "@modelcontextprotocol/core/ext/skills";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { tempDir } from "../../test/helpers/servers.ts";
import { Gateway } from "../gateway/gateway.ts";
import { declarePythonSkill } from "../skills/python-skill.ts";
import { createMcpServer } from "./create-mcp-server.ts";
import { type RunningHttpServer, serveHttp } from "./http/http-server.ts";

// Saved skills through the MCP skills extension (SEP-2640), read by the 2.x SDK's own
// SkillsClient, which checks every file against its entry (size, digest, frontmatter).

const DOUBLER = [
  "/** Doubles a number. */",
  "export function double(n: number): number {",
  "  return n * 2;",
  "}",
].join("\n");

const GREETER = 'export function greet(name: string): string {\n  return "hi " + name;\n}\n';

const PYTHON = 'def shout(text: str) -> str:\n    """Upper-cases text."""\n    return text.upper()\n';

async function saveSkill(client: Client, args: Record<string, unknown>): Promise<void> {
  const result = await client.callTool({ name: "save_skill", arguments: args });
  const text = (result.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("\n");
  assert.notEqual(result.isError, true, text);
}

function byName(skills: readonly Skill[]): Map<string, Skill> {
  return new Map(skills.map((skill) => [String(skill.frontmatter.name), skill]));
}

describe("skills extension (SEP-2640) over a 2025-era connection", () => {
  const dir = tempDir("skills-ext");
  const gateway = new Gateway({ config: { mcpServers: {}, toolscript: { storage: { dir: dir.path } } } });
  const client = new Client({ name: "skills-ext-test", version: "1" });
  const skills = new SkillsClient(client);
  let listChanged = 0;
  let onListChanged: () => void = () => {};

  before(async () => {
    await gateway.start();
    // A Python skill straight into the store: saving one through save_skill would start the Python runtime.
    await gateway.store?.skills.save({
      name: "shout_it",
      code: PYTHON,
      description: "Shouts.",
      declaration: declarePythonSkill("shout_it", PYTHON).declaration,
      language: "python",
    });
    client.setNotificationHandler("notifications/resources/list_changed", () => {
      listChanged++;
      onListChanged();
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(gateway).connect(serverSide);
    await client.connect(clientSide);
    await saveSkill(client, {
      name: "doubleIt",
      code: DOUBLER,
      description: "Doubles numbers.\n\nUse it for anything twice as large.",
    });
    // Private to another session: this connection (the default session) must not see it.
    await saveSkill(client, {
      name: "secret",
      code: GREETER,
      description: "Not yours.",
      session: "someone-else",
      visibility: "private",
    });
  });
  after(async () => {
    await client.close();
    await gateway.close();
    dir.remove();
  });

  test("the server declares the extension with directoryRead", () => {
    assert.equal(skills.supported, true);
    assert.equal(skills.directoryRead, true);
  });

  test("lists the skills this session sees, under Agent Skills names", async () => {
    const listing = await skills.list();
    assert.deepEqual(listing.invalid, []);
    const entries = byName(listing.skills);
    assert.deepEqual(
      [...entries.keys()],
      ["double-it", "shout-it"],
      "private skills of other sessions hidden",
    );
    const doubler = entries.get("double-it");
    assert.equal(doubler?.uri, "skill://double-it/SKILL.md");
    assert.equal(doubler?.frontmatter.description, "Doubles numbers.\n\nUse it for anything twice as large.");
    assert.deepEqual(doubler?.frontmatter.metadata, {
      "toolscript-name": "doubleIt",
      "toolscript-language": "typescript",
      "toolscript-version": "1",
      "toolscript-visibility": "shared",
    });
    const files = Array.isArray(doubler?.resources) ? doubler.resources.map((file) => file.uri) : [];
    assert.deepEqual(files, [
      "skill://double-it/SKILL.md",
      "skill://double-it/references/index.d.ts",
      "skill://double-it/scripts/index.ts",
    ]);
  });

  test("reads a skill's SKILL.md and code, verified against the entry", async () => {
    const doubler = byName((await skills.list()).skills).get("double-it");
    assert.ok(doubler);
    const manifest = await skills.read(doubler);
    assert.equal(manifest.verified, true);
    assert.equal(manifest.frontmatter?.name, "double-it");
    assert.match(manifest.body ?? "", /import \{ double \} from "skills\/doubleIt";/);
    const code = await skills.read(doubler, "scripts/index.ts");
    assert.equal(code.verified, true);
    assert.equal(code.text, `${DOUBLER}\n`);
    const declaration = await skills.read(doubler, "references/index.d.ts");
    assert.match(declaration.text ?? "", /double\(n: number\): number/);

    const python = byName((await skills.list()).skills).get("shout-it");
    assert.ok(python);
    assert.match((await skills.read(python)).body ?? "", /from skills\.shout_it import shout/);
    assert.equal((await skills.read(python, "scripts/index.py")).text, PYTHON);
  });

  test("serves the skill folders through resources/directory/read", async () => {
    const root = await skills.readDirectory("skill://double-it");
    assert.deepEqual(
      root.resources.map((entry) => [entry.name, entry.mimeType]),
      [
        ["SKILL.md", "text/markdown"],
        ["references", "inode/directory"],
        ["scripts", "inode/directory"],
      ],
    );
    const scripts = await skills.readDirectory("skill://double-it/scripts");
    assert.deepEqual(
      scripts.resources.map((entry) => entry.uri),
      ["skill://double-it/scripts/index.ts"],
    );
    await assert.rejects(
      client.request(
        { method: "resources/directory/read", params: { uri: "skill://double-it/SKILL.md" } },
        ReadResourceDirectoryResultSchema,
      ),
      (error: unknown) => error instanceof ProtocolError && error.code === -32602,
    );
  });

  test("lists each SKILL.md in resources/list and refuses unknown skills with -32602", async () => {
    const { resources } = await client.listResources();
    const manifest = resources.find((resource) => resource.uri === "skill://double-it/SKILL.md");
    assert.equal(manifest?.name, "double-it");
    assert.equal(manifest?.mimeType, "text/markdown");
    assert.ok(!resources.some((resource) => resource.uri.startsWith("skill://secret")));
    await assert.rejects(
      skills.get("skill://secret/SKILL.md"),
      (error: unknown) => error instanceof ProtocolError && error.code === -32602,
    );
    for (const uri of [
      "skill://secret/scripts/index.ts",
      "skill://double-it/../secret/SKILL.md",
      "skill://double-it/scripts",
    ])
      await assert.rejects(
        client.readResource({ uri }),
        // The server reads URIs as URLs: dot segments are resolved before the lookup and in the message.
        (error: unknown) =>
          error instanceof ProtocolError &&
          error.code === -32602 &&
          error.message.includes(new URL(uri).href),
        uri,
      );
    await assert.rejects(
      client.request({ method: "skills/list", params: { cursor: "../../etc" } }, ListSkillsResultSchema),
      (error: unknown) =>
        error instanceof ProtocolError &&
        error.code === -32602 &&
        /invalid skills\/list cursor/.test(error.message),
    );
  });

  test("a newly saved skill is announced (resources/list_changed) and listed", async () => {
    const before = listChanged;
    const announced = new Promise<void>((resolve) => {
      onListChanged = resolve;
    });
    await saveSkill(client, { name: "greeter", code: GREETER, description: "Greets someone." });
    await announced;
    assert.ok(listChanged > before);
    const entries = byName((await skills.list()).skills);
    assert.deepEqual([...entries.keys()], ["double-it", "greeter", "shout-it"]);
    const greeter = entries.get("greeter");
    assert.ok(greeter);
    assert.equal((await skills.read(greeter, "scripts/index.ts")).text, GREETER);
    // A new version changes the digests, and the entry follows.
    await saveSkill(client, { name: "greeter", code: `${GREETER}// v2\n`, description: "Greets someone." });
    const updated = byName((await skills.list()).skills).get("greeter");
    assert.ok(updated);
    assert.equal((updated.frontmatter.metadata as Record<string, string>)["toolscript-version"], "2");
    assert.match((await skills.read(updated, "scripts/index.ts")).text ?? "", /\/\/ v2/);
  });
});

describe("skills extension (SEP-2640) over stateless HTTP (2026-07-28)", () => {
  const dir = tempDir("skills-ext-http");
  const gateway = new Gateway({ config: { mcpServers: {}, toolscript: { storage: { dir: dir.path } } } });
  let running: RunningHttpServer;
  const client = new Client(
    { name: "skills-modern", version: "1" },
    { versionNegotiation: { mode: "auto" } },
  );
  const skills = new SkillsClient(client);

  before(async () => {
    await gateway.start();
    running = await serveHttp(gateway, { host: "127.0.0.1", port: 0, allowUnauthenticatedLoopback: true });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
  });
  after(async () => {
    await client.close();
    await running.close();
    await gateway.close();
    dir.remove();
  });

  test("lists with cache fields, hears of a skill saved by this client and lists it (private ones too)", async () => {
    assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
    assert.equal(skills.supported, true);
    const empty = await skills.list();
    assert.deepEqual(empty.skills, []);
    assert.equal(empty.ttlMs, 0);
    assert.equal(empty.cacheScope, "private");
    // 2026-07-28: list changes travel on a subscriptions/listen stream.
    const announced = new Promise<void>((resolve) => {
      client.setNotificationHandler("notifications/resources/list_changed", () => resolve());
    });
    const subscription = await client.listen({ resourcesListChanged: true });
    try {
      await saveSkill(client, {
        name: "mine",
        code: GREETER,
        description: "Mine only.",
        visibility: "private",
      });
      await announced;
    } finally {
      await subscription.close();
    }
    const listing = await skills.list();
    assert.deepEqual(
      listing.skills.map((skill) => skill.uri),
      ["skill://mine/SKILL.md"],
    );
    const mine = listing.skills[0];
    assert.ok(mine);
    assert.equal((await skills.read(mine, "scripts/index.ts")).text, GREETER);
    assert.equal((await skills.get("skill://mine/SKILL.md")).skill.uri, "skill://mine/SKILL.md");
  });
});
