import assert from "node:assert/strict";
import { createServer, type Socket } from "node:net";
import { after, describe, it } from "node:test";
import pg from "pg";
import { startLoopbackProxy } from "../../../test/helpers/loopback-proxy.ts";
import { startPostgres } from "../../../test/helpers/postgres-cluster.ts";
import { MIGRATION_LOCK } from "../postgres/migrate.ts";
import { POSTGRES_MIGRATIONS } from "../postgres/migrations.ts";
import { LISTENER_APPLICATION_NAME } from "../postgres/notifications.ts";
import { openPostgresStore } from "../postgres/postgres-store.ts";
import { hasCode, nextChange } from "./contract-target.ts";
import { skill } from "./sessions-contract.ts";
import { describeStoreContract } from "./store-contract.ts";

const cluster = await startPostgres();
after(() => cluster.stop());

let databases = 0;
/** A new empty database's URL, with a password the server ignores (trust) and the store must never show. */
async function freshUrl(): Promise<string> {
  const url = new URL(await cluster.createDatabase(`contract_${++databases}`));
  url.password = "secret";
  return url.toString();
}

describeStoreContract("PostgreSQL", {
  open: async (now) => openPostgresStore({ url: await freshUrl(), now }),
  openPair: async (now) => {
    const url = await freshUrl();
    return [await openPostgresStore({ url, now }), await openPostgresStore({ url, now })];
  },
  sharesChanges: true,
  keepsJournal: false,
});

async function query<R extends pg.QueryResultRow>(
  url: string,
  sql: string,
  values?: unknown[],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

describe("PostgreSQL store: migrations, notices, location, jsonb", () => {
  it("four replicas migrating one empty database at once all open; each migration is applied once", async () => {
    const url = await freshUrl();
    const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore({ url })));
    try {
      const rows = await query<{ version: number }>(
        url,
        "SELECT version FROM schema_migrations ORDER BY version",
      );
      assert.deepEqual(
        rows.map((row) => row.version),
        POSTGRES_MIGRATIONS.map((migration) => migration.version),
      );
      await stores[3]!.skills.save(skill("after"));
      assert.equal((await stores[0]!.skills.get("after"))?.version, 1);
      const locks = await query(url, "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = $1", [
        MIGRATION_LOCK,
      ]);
      assert.deepEqual(locks, [], "the migration lock is released");
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it("refuses a database migrated by a newer ToolScript", async () => {
    const url = await freshUrl();
    await (await openPostgresStore({ url })).close();
    await query(url, "INSERT INTO schema_migrations VALUES (1000, 'future', 0)");
    await assert.rejects(openPostgresStore({ url }), hasCode("store.schema_too_new"));
  });

  it("refuses a missing database with store.open_failed, without the password", async () => {
    const url = new URL(await freshUrl());
    url.pathname = "/no_such_database";
    await assert.rejects(openPostgresStore({ url: url.toString() }), (error: Error) => {
      assert.equal((error as { code?: string }).code, "store.open_failed");
      assert.match(error.message, /no_such_database/);
      assert.ok(!error.message.includes("secret"));
      return true;
    });
  });

  it("a replica that waits on another's migrations past the statement timeout fails with store.migration_failed", async () => {
    const url = await freshUrl();
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
      await assert.rejects(
        openPostgresStore({ url, statementTimeoutMs: 300 }),
        hasCode("store.migration_failed"),
      );
      await holder.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
      await (await openPostgresStore({ url, statementTimeoutMs: 300 })).close();
    } finally {
      await holder.end();
    }
  });

  it("keeps an audit record whose detail holds a NUL character (jsonb refuses it: U+FFFD instead)", async () => {
    const store = await openPostgresStore({ url: await freshUrl() });
    try {
      const record = {
        time: 1,
        session: null,
        server: "s",
        tool: "t",
        argsDigest: "d",
        argsBytes: 0,
        outcome: "ok",
        durationMs: 1,
        detail: { output: "a\u0000b" },
      };
      const [id] = await store.audit.append([record]);
      await store.audit.update([{ id: id!, update: { ...record, detail: { error: "c\u0000d" } } }]);
      assert.deepEqual((await store.audit.list())[0]?.detail, { error: "c\uFFFDd" });
    } finally {
      await store.close();
    }
  });

  it("says where it is without the password, connects as toolscript, refuses a URL that is not postgres://", async () => {
    const url = await freshUrl();
    const store = await openPostgresStore({ url });
    // The password may also be a parameter of the URL, which pg honours.
    const asParameter = new URL(url);
    asParameter.password = "";
    asParameter.searchParams.set("password", "secret");
    const second = await openPostgresStore({ url: asParameter.toString() });
    try {
      assert.equal(store.engine, "postgres");
      assert.equal(store.location, url.replace(":secret@", "@"));
      assert.ok(!second.location.includes("secret"), second.location);
      const names = await query<{ name: string }>(
        url,
        `SELECT DISTINCT application_name AS name FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() ORDER BY 1`,
      );
      assert.deepEqual(
        names.map((row) => row.name),
        ["toolscript", LISTENER_APPLICATION_NAME],
      );
    } finally {
      await Promise.all([store.close(), second.close()]);
    }
    await assert.rejects(openPostgresStore({ url: "mysql://u:secret@h/db" }), (error: Error) => {
      assert.equal((error as { code?: string }).code, "store.bad_url");
      assert.ok(!error.message.includes("secret"));
      return true;
    });
  });

  it("when its listening connection drops it reconnects, tells listeners to resync, and hears changes again", async () => {
    const url = await freshUrl();
    const [a, b] = [await openPostgresStore({ url }), await openPostgresStore({ url })];
    try {
      const resync = nextChange(b, (change) => change.action === "resync", 10_000);
      const killed = await query(
        url,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
        [LISTENER_APPLICATION_NAME],
      );
      assert.equal(killed.length, 2, "both stores' listeners");
      assert.deepEqual(await resync, { domain: "skills", action: "resync" });
      const heard = nextChange(b, (change) => change.action === "saved");
      await a.skills.save(skill("again"));
      assert.deepEqual(await heard, { domain: "skills", name: "again", action: "saved" });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe("PostgreSQL store: unreachable", () => {
  it("a stopped server makes ping and methods reject with store.unreachable, promptly", async () => {
    const own = await startPostgres();
    let store: Awaited<ReturnType<typeof openPostgresStore>> | undefined;
    try {
      const url = new URL(await own.createDatabase("gone"));
      url.password = "secret";
      store = await openPostgresStore({ url: url.toString(), connectionTimeoutMs: 2_000 });
      await store.sessions.touch("s1");
      await own.stop();
      const started = Date.now();
      const unreachable = (error: Error) => {
        assert.equal((error as { code?: string }).code, "store.unreachable");
        assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${own.port}`));
        assert.ok(!error.message.includes("secret"));
        return true;
      };
      await assert.rejects(store.ping(), unreachable);
      await assert.rejects(store.sessions.get("s1"), unreachable);
      await assert.rejects(store.skills.save(skill("lost")), unreachable);
      assert.ok(Date.now() - started < 5_000, `answered in ${Date.now() - started} ms`);
      await assert.rejects(
        openPostgresStore({ url: url.toString(), connectionTimeoutMs: 2_000 }),
        unreachable,
      );
    } finally {
      await store?.close();
      await own.stop();
    }
  });

  it("an outage makes it unreachable; once the server is back it serves again and listeners resync", async () => {
    const proxy = await startLoopbackProxy(cluster.port);
    const url = new URL(await freshUrl());
    url.port = String(proxy.port);
    const store = await openPostgresStore({ url: url.toString(), connectionTimeoutMs: 1_000 });
    try {
      await store.sessions.touch("s1");
      const resync = nextChange(store, (change) => change.action === "resync", 15_000);
      proxy.cut();
      await assert.rejects(store.ping(), hasCode("store.unreachable"));
      await assert.rejects(store.sessions.get("s1"), hasCode("store.unreachable"));
      await assert.rejects(store.skills.save(skill("lost")), hasCode("store.unreachable"));
      proxy.restore();
      await store.ping();
      assert.equal((await store.sessions.get("s1"))?.id, "s1");
      assert.equal(await store.skills.get("lost"), undefined, "the failed save left nothing");
      assert.deepEqual(await resync, { domain: "skills", action: "resync" });
      const heard = nextChange(store, (change) => change.action === "saved");
      await store.skills.save(skill("back"));
      assert.deepEqual(await heard, { domain: "skills", name: "back", action: "saved" });
    } finally {
      await store.close();
      await proxy.close();
    }
  });

  it("a listening connection gone silent fails its heartbeat: reconnects, resyncs, and closing does not hang", async () => {
    const proxy = await startLoopbackProxy(cluster.port);
    const url = new URL(await freshUrl());
    url.port = String(proxy.port);
    const store = await openPostgresStore({
      url: url.toString(),
      connectionTimeoutMs: 500,
      heartbeatMs: 100,
    });
    try {
      const resync = nextChange(store, (change) => change.action === "resync", 15_000);
      // Silent, not closed: only the heartbeat can tell. Connections made meanwhile are silent too.
      proxy.freeze();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      proxy.restore();
      assert.deepEqual(await resync, { domain: "skills", action: "resync" });
      // The pool's connection from before the partition is still silent: its first use fails, then it is gone.
      await waitUntil(async () => {
        await store.ping();
      });
      const heard = nextChange(store, (change) => change.action === "saved");
      await store.skills.save(skill("after-partition"));
      assert.deepEqual(await heard, { domain: "skills", name: "after-partition", action: "saved" });
      proxy.freeze();
      const closing = Date.now();
      await store.close();
      assert.ok(Date.now() - closing < 3_000, `closed in ${Date.now() - closing} ms`);
    } finally {
      await store.close();
      await proxy.close();
    }
  });

  it("a server that accepts connections and never answers is unreachable after the connection timeout", async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    const port = typeof address === "object" && address ? address.port : 0;
    try {
      const started = Date.now();
      await assert.rejects(
        openPostgresStore({ url: `postgres://u:secret@127.0.0.1:${port}/db`, connectionTimeoutMs: 500 }),
        hasCode("store.unreachable"),
      );
      assert.ok(Date.now() - started < 3_000, `answered in ${Date.now() - started} ms`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

/** Retries `attempt` until it resolves, for at most `timeoutMs`. */
async function waitUntil(attempt: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
