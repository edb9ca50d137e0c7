import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { Gateway } from "../src/gateway/gateway.ts";
import { createMcpServer } from "../src/server/create-mcp-server.ts";
import { openPostgresStore } from "../src/store/postgres/postgres-store.ts";
import { type LoopbackProxy, startLoopbackProxy } from "./helpers/loopback-proxy.ts";
import { type PostgresCluster, startPostgres } from "./helpers/postgres-cluster.ts";
import { cliArgs, freePort, tempDir } from "./helpers/servers.ts";
import { until } from "./helpers/traced-serve.ts";

// Replicas on one PostgreSQL database (issue #22): two gateways in this process,
// each with its own store, as two `serve --http` processes would have.

const TRIPLER = "/** Triples a number. */\nexport function triple(n: number): number {\n  return n * 3;\n}\n";
const PROGRAM = 'import { triple } from "skills/tripler";\nreturn triple(14);';
/** How long a replica may take to hear a change (LISTEN/NOTIFY on loopback takes milliseconds). */
const HEAR_MS = 5_000;

let cluster: PostgresCluster;
let databases = 0;
const dir = tempDir("skills-replicas");

before(async () => {
  cluster = await startPostgres();
});
after(async () => {
  await cluster?.stop();
  dir.remove();
});

async function freshDatabase(): Promise<string> {
  return cluster.createDatabase(`replicas_${++databases}`);
}

/** A started gateway with no upstream server on its own store at `url`. */
async function replica(url: string, options: { connectionTimeoutMs?: number } = {}): Promise<Gateway> {
  const store = await openPostgresStore({ url, ...options });
  const gateway = new Gateway({ config: { mcpServers: {} }, store });
  try {
    await gateway.start();
  } catch (error) {
    await gateway.close();
    throw error;
  }
  return gateway;
}

const gone = (gateway: Gateway, name: string) => (gateway.skills.get(name) ? undefined : true);

describe("skills across replicas on one PostgreSQL database", () => {
  it("saved through A: B imports it, finds it and announces it to its clients; removed through A: B's import fails", async () => {
    const url = await freshDatabase();
    const a = await replica(url);
    const b = await replica(url);
    const client = new Client({ name: "replica-b", version: "1" });
    try {
      let announced = 0;
      client.setNotificationHandler("notifications/resources/list_changed", () => {
        announced++;
      });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createMcpServer(b).connect(serverSide);
      await client.connect(clientSide);

      await a.skills.save({
        name: "tripler",
        code: TRIPLER,
        description: "Triples a number for the ledger.",
      });
      await until("B hears the save", () => b.skills.get("tripler"), HEAR_MS);
      const run = await b.execute(PROGRAM);
      assert.equal(run.error, undefined, run.error?.message);
      assert.equal(run.result, 42);
      assert.deepEqual(
        b.search("triple a number").map((match) => match.result.path),
        ["skills/tripler"],
      );
      await until("B's client told", () => (announced > 0 ? true : undefined), HEAR_MS);
      const listed = await new SkillsClient(client).list();
      assert.deepEqual(
        listed.skills.map((skill) => skill.frontmatter.name),
        ["tripler"],
      );

      await a.skills.remove("tripler");
      await until("B hears the removal", () => gone(b, "tripler"), HEAR_MS);
      const refused = await b.execute(PROGRAM);
      assert.match(refused.error?.message ?? "", /skills\/tripler|No skill "tripler"/);
      assert.deepEqual(b.search("triple a number"), []);
    } finally {
      await client.close();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("a replica whose listening connection was cut catches up (resync) with what was saved and removed meanwhile", async () => {
    const url = await freshDatabase();
    let proxy: LoopbackProxy | undefined;
    const a = await replica(url);
    let b: Gateway | undefined;
    try {
      proxy = await startLoopbackProxy(cluster.port);
      const proxied = new URL(url);
      proxied.port = String(proxy.port);
      b = await replica(proxied.toString(), { connectionTimeoutMs: 1_000 });
      const replicaB = b;
      await a.skills.save({ name: "before-cut", code: TRIPLER, description: "Saved before the cut." });
      await until("B hears the first save", () => replicaB.skills.get("before-cut"), HEAR_MS);

      proxy.cut();
      await a.skills.save({
        name: "tripler",
        code: TRIPLER,
        description: "Triples a number for the ledger.",
      });
      await a.skills.remove("before-cut");
      // B cannot have heard: its only connection to the database is cut.
      assert.equal(b.skills.get("tripler"), undefined);
      assert.equal(b.skills.get("before-cut")?.name, "before-cut");

      proxy.restore();
      await until("B resyncs the save", () => replicaB.skills.get("tripler"), 15_000);
      await until("B resyncs the removal", () => gone(replicaB, "before-cut"), HEAR_MS);
      const run = await b.execute(PROGRAM);
      assert.equal(run.error, undefined, run.error?.message);
      assert.equal(run.result, 42);

      // And it hears changes again.
      await a.skills.save({ name: "after-cut", code: TRIPLER, description: "Saved after the cut." });
      await until("B hears again", () => replicaB.skills.get("after-cut"), HEAR_MS);
    } finally {
      await Promise.all([a.close(), b?.close()]);
      await proxy?.close();
    }
  });
});

describe("toolscript skills on a PostgreSQL store", () => {
  /** The CLI from source in `dir`; blocking is fine: the database is another process. */
  function cli(env: Record<string, string>, ...args: string[]) {
    const result = spawnSync(process.execPath, cliArgs(...args), {
      cwd: dir.path,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, NO_COLOR: "1", ...env },
      input: "",
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  it("list (TOOLSCRIPT_STORAGE_URL), show, export, rm and import (storage.url in the config) work on the shared store", async () => {
    const url = await freshDatabase();
    const gateway = await replica(url);
    try {
      await gateway.skills.save({ name: "tripler", code: TRIPLER, description: "Triples a number." });
      await gateway.skills.save({ name: "tripler", code: `${TRIPLER}// v2\n`, description: "Triples it." });
      await gateway.skills.save({
        name: "secret",
        code: TRIPLER,
        description: "Private.",
        session: "s1",
        visibility: "private",
      });

      const bare = join(dir.path, "bare.json");
      writeFileSync(bare, JSON.stringify({ mcpServers: {} }));
      const listed = cli({ TOOLSCRIPT_STORAGE_URL: url }, "skills", "list", "--config", bare);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /^secret +v1 private:s1 {2}Private\.$/m);
      assert.match(listed.stdout, /^tripler {2}v2 {2}Triples it\.$/m);
      assert.match(listed.stderr, new RegExp(`2 skills in ${url.replace(/[.?*+^$()[\]{}|\\]/g, "\\$&")}`));

      const configured = join(dir.path, "configured.json");
      writeFileSync(configured, JSON.stringify({ mcpServers: {}, toolscript: { storage: { url } } }));
      const shown = cli({}, "skills", "show", "tripler", "--version", "1", "--config", configured);
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /---- code \(2 versions\) ----/);
      assert.doesNotMatch(shown.stdout, /\/\/ v2/);

      const exported = join(dir.path, "exported");
      mkdirSync(exported);
      const exporting = cli({}, "skills", "export", exported, "--config", configured);
      assert.equal(exporting.code, 0, exporting.stderr);
      assert.match(exporting.stderr, /exported 1 skills/);

      const removing = cli({}, "skills", "rm", "tripler", "--config", configured);
      assert.equal(removing.code, 0, removing.stderr);
      await until("the gateway hears the CLI's removal", () => gone(gateway, "tripler"), HEAR_MS);

      const importing = cli({}, "skills", "import", exported, "--config", configured);
      assert.equal(importing.code, 0, importing.stderr);
      assert.equal(importing.stdout, "tripler v1\n");
      await until("the gateway hears the CLI's import", () => gateway.skills.get("tripler"), HEAR_MS);
      assert.match(gateway.skills.get("tripler")?.code ?? "", /\/\/ v2/);
    } finally {
      await gateway.close();
    }
  });

  it("says the store is unreachable, without the password", async () => {
    // A port nothing listens on (the OS just handed it out and took it back).
    const closed = await freePort();
    const result = cli(
      { TOOLSCRIPT_STORAGE_URL: `postgres://toolscript:hunter2@127.0.0.1:${closed}/none` },
      "skills",
      "list",
      "--config",
      join(dir.path, "bare.json"),
    );
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /the PostgreSQL store at 127\.0\.0\.1:\d+ is unreachable/);
    assert.doesNotMatch(result.stderr, /hunter2/);
  });
});
