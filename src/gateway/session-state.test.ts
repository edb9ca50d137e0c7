import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { startLoopbackProxy } from "../../test/helpers/loopback-proxy.ts";
import { type StoreEngine, storeEngines } from "../../test/helpers/store-engines.ts";
import { parseConfig } from "../config/parse.ts";
import type { SharedStore } from "../store/domains.ts";
import { openPostgresStore } from "../store/postgres/postgres-store.ts";
import { silentLogger } from "./logger.ts";
import { SessionStates } from "./session-state.ts";

function states(key?: Buffer): SessionStates {
  const config = parseConfig({ mcpServers: {} }, { baseDir: "/", env: {} });
  return new SessionStates(config.settings.privacy, key);
}

/**
 * Two replicas' stores on one database: two PostgreSQL stores on one database, or
 * one SQLite store twice (each replica's caches are its own SessionStates either way).
 */
async function withReplicas(
  engine: StoreEngine,
  fn: (a: SharedStore, b: SharedStore) => Promise<void>,
): Promise<void> {
  if (!engine.database) {
    const store = await engine.open();
    try {
      await fn(store, store);
    } finally {
      await store.close();
    }
    return;
  }
  const url = await engine.database();
  const [a, b] = [await openPostgresStore({ url }), await openPostgresStore({ url })];
  try {
    await fn(a, b);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

/** A SessionStates on `store`, closed by `withReplicas`' caller through `close`. */
function attached(store: SharedStore, key?: Buffer): SessionStates {
  const sessions = states(key);
  sessions.attach(store, silentLogger);
  return sessions;
}

describe("SessionStates before a store is attached", () => {
  it("keeps ownership in memory", async () => {
    const sessions = states();
    assert.equal(await sessions.touch("work", "alice"), undefined);
    assert.equal((await sessions.touch("work", "bob"))?.name, "SessionError");
    assert.equal((await sessions.refusal("work", "bob"))?.name, "SessionError");
    assert.equal(await sessions.refusal("work", "alice"), undefined);
  });
});

for (const engine of storeEngines("session_state")) {
  describe(`SessionStates (${engine.name}): sessions belong to the client that created them`, () => {
    it("refuses another client's session as unknown, before and after the store knows it", () =>
      withReplicas(engine, async (store) => {
        const sessions = attached(store);
        assert.equal(await sessions.touch("work", "alice"), undefined);
        const refused = await sessions.touch("work", "bob");
        assert.deepEqual(refused, {
          kind: "runtime",
          name: "SessionError",
          message: 'unknown session "work"',
        });
        assert.deepEqual(await sessions.touch("work", null), refused, "the local client is a client too");
        assert.deepEqual(await sessions.refusal("work", "bob"), refused);
        assert.equal(await sessions.refusal("work", "alice"), undefined);
        assert.equal(
          await sessions.refusal("never-used", "bob"),
          undefined,
          "an unknown name is free to take",
        );
        assert.equal(await sessions.touch("work", "alice"), undefined);
        sessions.close();
      }));

    it("reads owners from the store (a gateway restarted on the same data, or another replica)", () =>
      withReplicas(engine, async (a, b) => {
        await a.sessions.claim("work", "alice");
        const sessions = attached(b);
        assert.equal((await sessions.touch("work", "bob"))?.name, "SessionError");
        assert.equal((await sessions.refusal("work", "bob"))?.name, "SessionError");
        assert.equal(await sessions.touch("work", "alice"), undefined);
        sessions.close();
      }));

    it("the local client alone keeps its behaviour: any name, created on first use", () =>
      withReplicas(engine, async (store) => {
        const sessions = attached(store);
        assert.equal(await sessions.touch("default"), undefined);
        assert.equal(await sessions.touch("default"), undefined);
        assert.equal((await sessions.touch("x".repeat(201)))?.name, "SessionError");
        sessions.close();
      }));

    it("a session another replica deleted is made again for the client using it; its old owner's claim is not kept", () =>
      withReplicas(engine, async (a, b) => {
        const one = attached(a);
        const two = attached(b);
        assert.equal(await one.touch("work", "alice"), undefined);
        await one.workspace("work")?.writeFile("old.txt", "old");
        // Deleted on the other replica, then taken by bob there.
        assert.equal(await b.sessions.delete("work"), true);
        assert.equal(await two.touch("work", "bob"), undefined);
        // This replica saw alice own it moments ago: it asks the store, not its memory.
        assert.equal((await one.touch("work", "alice"))?.name, "SessionError");
        assert.equal((await one.refusal("work", "alice"))?.name, "SessionError");
        assert.equal(await one.refusal("work", "bob"), undefined);
        assert.equal(await one.touch("work", "bob"), undefined);
        assert.deepEqual(await one.workspace("work")?.list(), [], "the old files went with the old session");
        // Deleted again: alice's next execution makes it again, hers.
        await b.sessions.delete("work");
        assert.equal(await one.touch("work", "alice"), undefined);
        assert.equal((await a.sessions.get("work"))?.owner, "alice");
        one.close();
        two.close();
      }));

    it("a workspace file written through one replica is read through the other", () =>
      withReplicas(engine, async (a, b) => {
        const one = attached(a);
        const two = attached(b);
        await one.workspace("s")?.writeFile("notes.txt", "from one");
        assert.equal(await two.workspace("s")?.readFile("notes.txt"), "from one");
        const path = await two.saveFullValue("s", { rows: [1, 2, 3] });
        assert.ok(path);
        assert.equal(await one.workspace("s")?.readFile(path), '{"rows":[1,2,3]}');
        one.close();
        two.close();
      }));
  });

  describe(`SessionStates (${engine.name}): PII vaults shared by replicas`, () => {
    const key = randomBytes(32);

    it("a token issued on one replica turns back into its value on the other", () =>
      withReplicas(engine, async (a, b) => {
        const one = attached(a, key);
        const two = attached(b, key);
        assert.equal(await one.refreshVault("s"), undefined);
        assert.equal(await one.vault("s").tokenizeAsync("write ann@example.org"), "write [EMAIL_1]");
        assert.equal(await two.refreshVault("s"), undefined);
        assert.equal(two.vault("s").detokenize("to [EMAIL_1]"), "to ann@example.org");
        assert.equal(await two.vault("s").tokenizeAsync("ANN@example.org"), "[EMAIL_1]", "same identity");
        assert.equal(await two.vault("s").tokenizeAsync("bob@example.org"), "[EMAIL_2]");
        assert.equal(await one.refreshVault("s"), undefined);
        assert.equal(one.vault("s").detokenize("[EMAIL_2]"), "bob@example.org");
        one.close();
        two.close();
      }));

    it("a replica with a stale copy never gives a taken token to another value: it reloads and redoes", () =>
      withReplicas(engine, async (a, b) => {
        const one = attached(a, key);
        const two = attached(b, key);
        await one.refreshVault("s");
        await two.refreshVault("s");
        assert.equal(await one.vault("s").tokenizeAsync("ann@example.org"), "[EMAIL_1]");
        // `two` still holds the copy from before: its [EMAIL_1] would be bob's.
        assert.equal(await two.vault("s").tokenizeAsync("bob@example.org"), "[EMAIL_2]");
        assert.equal(two.vault("s").detokenize("[EMAIL_1] [EMAIL_2]"), "ann@example.org bob@example.org");
        await one.refreshVault("s");
        assert.equal(one.vault("s").detokenize("[EMAIL_1] [EMAIL_2]"), "ann@example.org bob@example.org");
        one.close();
        two.close();
      }));

    it("replicas tokenizing different values at once give each its own token and lose none", () =>
      withReplicas(engine, async (a, b) => {
        const replicas = [attached(a, key), attached(b, key)];
        await Promise.all(replicas.map((replica) => replica.refreshVault("s")));
        const emails = Array.from({ length: 12 }, (_, i) => `user${i}@example.org`);
        const tokens = await Promise.all(
          emails.map((email, i) => replicas[i % 2]?.vault("s").tokenizeAsync(email)),
        );
        assert.equal(new Set(tokens).size, emails.length, `distinct tokens: ${tokens.join(" ")}`);
        for (const replica of replicas) {
          assert.equal(await replica.refreshVault("s"), undefined);
          for (const [i, token] of tokens.entries())
            assert.equal(replica.vault("s").detokenize(token ?? ""), emails[i]);
        }
        for (const replica of replicas) replica.close();
      }));

    it("a session deleted elsewhere takes its vault with it: its old tokens no longer resolve", () =>
      withReplicas(engine, async (a, b) => {
        const one = attached(a, key);
        await one.refreshVault("s");
        assert.equal(await one.vault("s").tokenizeAsync("ann@example.org"), "[EMAIL_1]");
        await b.sessions.delete("s");
        assert.equal(await one.refreshVault("s"), undefined);
        assert.equal(one.vault("s").detokenize("[EMAIL_1]"), "[EMAIL_1]");
        assert.equal(await one.vault("s").tokenizeAsync("bob@example.org"), "[EMAIL_1]", "a new vault");
        one.close();
      }));

    it("without a key nothing is stored: tokens stay on the replica that issued them", () =>
      withReplicas(engine, async (a, b) => {
        const one = attached(a);
        const two = attached(b);
        assert.equal(one.persistent, false);
        await one.refreshVault("s");
        assert.equal(await one.vault("s").tokenizeAsync("ann@example.org"), "[EMAIL_1]");
        assert.equal(await a.vaults.get("s"), undefined);
        await two.refreshVault("s");
        assert.equal(two.vault("s").detokenize("[EMAIL_1]"), "[EMAIL_1]");
        one.close();
        two.close();
      }));
  });

  const database = engine.database;
  if (database) {
    describe(`SessionStates (${engine.name}): a store that does not answer`, () => {
      it("touch reports StoreUnavailable naming the store without its password; all is well once it is back", async () => {
        const url = new URL(await database());
        const proxy = await startLoopbackProxy(Number(url.port));
        url.port = String(proxy.port);
        url.password = "secret";
        const store = await openPostgresStore({ url: url.toString(), connectionTimeoutMs: 1_000 });
        const sessions = attached(store, randomBytes(32));
        try {
          assert.equal(await sessions.touch("s", "alice"), undefined);
          await sessions.refreshVault("s");
          assert.equal(await sessions.vault("s").tokenizeAsync("ann@example.org"), "[EMAIL_1]");
          proxy.cut();
          const started = Date.now();
          const failed = await sessions.touch("s", "alice");
          assert.equal(failed?.kind, "runtime");
          assert.equal(failed?.name, "StoreUnavailable");
          assert.ok(
            failed?.message.includes(`the store at ${store.location} does not answer`),
            failed?.message,
          );
          assert.ok(!failed?.message.includes("secret"), failed?.message);
          assert.ok(Date.now() - started < 5_000, `answered in ${Date.now() - started} ms`);
          assert.equal((await sessions.refreshVault("s"))?.name, "StoreUnavailable");
          await assert.rejects(sessions.vault("s").tokenizeAsync("bob@example.org"), /unreachable/);
          assert.equal((await sessions.refusal("s", "bob"))?.name, "StoreUnavailable");
          proxy.restore();
          assert.equal(await sessions.touch("s", "alice"), undefined);
          assert.equal(await sessions.refreshVault("s"), undefined);
          // The value tokenized while the store was away was never handed out: bob gets [EMAIL_2] now.
          assert.equal(await sessions.vault("s").tokenizeAsync("bob@example.org"), "[EMAIL_2]");
          assert.equal(sessions.vault("s").detokenize("[EMAIL_1]"), "ann@example.org");
        } finally {
          sessions.close();
          await store.close();
          await proxy.close();
        }
      });
    });
  }
}
