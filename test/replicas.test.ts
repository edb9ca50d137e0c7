import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { openPostgresStore } from "../src/store/postgres/postgres-store.ts";
import type { AuditRecord } from "../src/store/types.ts";
import { type PostgresCluster, startPostgres } from "./helpers/postgres-cluster.ts";
import { runCliAsync } from "./helpers/run-cli-async.ts";
import { type ServedProcess, serveHttpProcess, stop } from "./helpers/serve-http-process.ts";
import { FILESYSTEM_JS, SCRIPTED_JS, tempDir } from "./helpers/servers.ts";

// Two `serve --http` replicas on one private PostgreSQL cluster, each reached by its
// own stateless (2026-07-28) stock SDK client, as a load balancer would spread them.

interface Answer {
  isError?: boolean;
  content?: Array<{ text?: string }>;
  structuredContent?: { result?: unknown; error?: { name: string; message: string } };
}

const textOf = (answer: Answer) => (answer.content ?? []).map((part) => part.text ?? "").join("\n");

async function connect(replica: ServedProcess): Promise<Client> {
  const client = new Client({ name: "replica-test", version: "1" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(replica.url)));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  return (await client.callTool({ name, arguments: args }, { timeout: 60_000 })) as Answer;
}

async function run(client: Client, code: string, session = "shared"): Promise<unknown> {
  const answer = await call(client, "execute_code", { code, session });
  assert.notEqual(answer.isError, true, textOf(answer));
  return answer.structuredContent?.result;
}

/** Polls `probe` until it is true (at most `ms`), so a notification has time to cross. */
async function eventually(what: string, probe: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("replicas on one PostgreSQL store", { timeout: 240_000 }, () => {
  const dir = tempDir("replicas");
  let cluster: PostgresCluster;
  let url: string;
  const replicas: Record<"a" | "b", ServedProcess> = {} as never;
  const clients: Record<"a" | "b", Client> = {} as never;
  const vaultKey = randomBytes(32).toString("base64");

  before(async () => {
    cluster = await startPostgres();
    url = await cluster.createDatabase("replicas");
    mkdirSync(join(dir.path, "files"));
    // Started together: the migrations run once, under their lock.
    const [a, b] = await Promise.all(
      (["a", "b"] as const).map((name) =>
        serveHttpProcess(dir.path, {
          configName: `replica-${name}.json`,
          mcpServers: {
            scripted: { command: process.execPath, args: [SCRIPTED_JS] },
            filesystem: { command: process.execPath, args: [FILESYSTEM_JS, join(dir.path, "files")] },
          },
          toolscript: { storage: { url, dir: join(dir.path, `data-${name}`) }, privacy: { pii: true } },
          env: { TOOLSCRIPT_VAULT_KEY: vaultKey, TOOLSCRIPT_REPLICA: `replica-${name}` },
        }),
      ),
    );
    replicas.a = a as ServedProcess;
    replicas.b = b as ServedProcess;
    clients.a = await connect(replicas.a);
    clients.b = await connect(replicas.b);
  });
  after(async () => {
    for (const client of Object.values(clients)) await client?.close().catch(() => {});
    for (const replica of Object.values(replicas)) if (replica) await stop(replica.child, "SIGTERM");
    await cluster?.stop();
    dir.remove();
  });

  test("a skill saved on one replica is imported on the other, and its removal too", async () => {
    const saved = await call(clients.a, "save_skill", {
      name: "triple",
      code: "/** Triples a number. */\nexport function triple(n: number): number {\n  return n * 3;\n}\n",
      description: "Triples a number.",
    });
    assert.notEqual(saved.isError, true, textOf(saved));
    await eventually("replica b to import the skill", async () => {
      const answer = await call(clients.b, "execute_code", {
        code: 'import { triple } from "skills/triple";\nreturn triple(14);',
      });
      return answer.structuredContent?.result === 42;
    });
    const found = await call(clients.b, "search_tools", { query: "triple a number" });
    assert.match(textOf(found), /skills\/triple|skills\.triple/);

    // Removed from the shared store by the CLI: neither replica imports it any more.
    const removed = await runCliAsync(dir.path, ["skills", "rm", "triple", "--config", "replica-a.json"]);
    assert.equal(removed.code, 0, removed.stderr);
    for (const client of [clients.a, clients.b]) {
      await eventually("the removal to reach the replica", async () => {
        const answer = await call(client, "execute_code", {
          code: 'import { triple } from "skills/triple";\nreturn triple(1);',
        });
        return answer.isError === true && /triple/.test(textOf(answer));
      });
    }
  });

  test("a workspace file and a PII token cross replicas in one session", async () => {
    await run(
      clients.a,
      'await workspace.writeFile("notes/a.txt", "written on a"); return "ok";',
      "crossing",
    );
    assert.equal(
      await run(clients.b, 'return await workspace.readFile("notes/a.txt");', "crossing"),
      "written on a",
    );

    // The email leaves replica a as a token...
    const tokenized = await run(
      clients.a,
      'return await tools.scripted.echo({ message: "write to ada.lovelace@example.org" });',
      "crossing",
    );
    const token = /\[EMAIL_\d+\]/.exec(String(tokenized))?.[0];
    assert.ok(token, `a token in ${JSON.stringify(tokenized)}`);
    // ...and replica b turns it back into the address before the upstream sees it (what the
    // sandbox reads back is tokenized again, so the file on disk is the witness).
    const out = join(dir.path, "files", "to.txt");
    await run(
      clients.b,
      `await tools.filesystem.write_file({ path: ${JSON.stringify(out)}, content: ${JSON.stringify(token)} });\nreturn "written";`,
      "crossing",
    );
    assert.equal(readFileSync(out, "utf8"), "ada.lovelace@example.org");
  });

  test("a replica killed mid-execution loses nothing it acknowledged; the other keeps serving", async () => {
    const killed = await serveHttpProcess(dir.path, {
      configName: "replica-k.json",
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      toolscript: { storage: { url, dir: join(dir.path, "data-k") } },
      env: { TOOLSCRIPT_VAULT_KEY: vaultKey, TOOLSCRIPT_REPLICA: "replica-k" },
    });
    const client = await connect(killed);
    const store = await openPostgresStore({ url });
    try {
      // Files written one by one, then a tool call that will not finish.
      const pending = call(client, "execute_code", {
        session: "doomed",
        code: [
          'for (let i = 0; i < 20; i++) await workspace.writeFile("w/" + i + ".txt", "x".repeat(i));',
          "await tools.scripted.slow({ ms: 60000 });",
        ].join("\n"),
      }).catch((error: unknown) => error);
      let started: AuditRecord | undefined;
      await eventually("the slow call's started record", async () => {
        const records = await store.audit.list({ session: "doomed" });
        started = records.find((record) => record.tool === "slow" && record.outcome === "started");
        return started !== undefined;
      });
      await stop(killed.child, "SIGKILL");
      await pending;

      // What it acknowledged before the call is there for the survivor.
      const files = await run(clients.b, 'return (await workspace.list("w")).length;', "doomed");
      assert.equal(files, 20);
      assert.equal(await run(clients.b, "return 6 * 7;"), 42);

      // The audit CLI shows both replicas' records, the killed one's started call included.
      const cli = await runCliAsync(dir.path, [
        "audit",
        "--config",
        "replica-b.json",
        "--json",
        "--limit",
        "500",
      ]);
      assert.equal(cli.code, 0, cli.stderr);
      const records = cli.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as AuditRecord & { replica?: string });
      const byReplica = new Set(records.map((record) => record.replica));
      for (const name of ["replica-a", "replica-b", "replica-k"]) assert.ok(byReplica.has(name), name);
      assert.ok(
        records.some(
          (record) =>
            record.replica === "replica-k" && record.tool === "slow" && record.outcome === "started",
        ),
      );
    } finally {
      await client.close().catch(() => {});
      await stop(killed.child, "SIGKILL");
      await store.close();
    }
  });
});
