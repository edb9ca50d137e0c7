import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Gateway } from "../src/gateway/gateway.ts";
import type { ExecuteResponse } from "../src/gateway/types.ts";
import { VAULT_KEY_ENV } from "../src/privacy/vault-crypto.ts";
import { formatExecuteAnswer } from "../src/server/format-answer.ts";
import { openPostgresStore } from "../src/store/postgres/postgres-store.ts";
import { startLoopbackProxy } from "./helpers/loopback-proxy.ts";
import { type PostgresCluster, startPostgres } from "./helpers/postgres-cluster.ts";
import { MEMORY_JS, tempDir } from "./helpers/servers.ts";

// Two gateways in one process, each with its own PostgreSQL store on one database: two replicas.
const dir = tempDir("replica-sessions");
/** What the replicas warned, in order. */
const warnings: string[] = [];
const logger = { info() {}, error() {}, warn: (message: string) => warnings.push(message) };
let cluster: PostgresCluster;
let databases = 0;
before(async () => {
  cluster = await startPostgres();
});
after(async () => {
  await cluster?.stop();
  dir.remove();
});

/** A replica: its own memory server (writing `memory-<name>.jsonl`, what the upstream received) and store. */
async function replica(name: string, url: string, vaultKey: string | null): Promise<Gateway> {
  const saved = process.env[VAULT_KEY_ENV];
  if (vaultKey === null) delete process.env[VAULT_KEY_ENV];
  else process.env[VAULT_KEY_ENV] = vaultKey;
  try {
    const gateway = new Gateway({
      config: {
        mcpServers: {
          memory: {
            command: process.execPath,
            args: [MEMORY_JS],
            env: { MEMORY_FILE_PATH: memoryFile(url, name) },
          },
        },
        toolscript: { storage: { url } },
      },
      // The key is read when the gateway is made; the store is opened here as `serve` would.
      store: await openPostgresStore({ url }),
      logger,
    });
    await gateway.start();
    return gateway;
  } finally {
    if (saved === undefined) delete process.env[VAULT_KEY_ENV];
    else process.env[VAULT_KEY_ENV] = saved;
  }
}

function memoryFile(url: string, name: string): string {
  return join(dir.path, `memory-${new URL(url).pathname.slice(1)}-${name}.jsonl`);
}

/** What the replica's memory server stored: the arguments as the upstream received them. */
function received(url: string, name: string): string {
  const path = memoryFile(url, name);
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

async function withReplicas(
  fn: (a: Gateway, b: Gateway, url: string) => Promise<void>,
  /** null: no key (vaults in memory only). */
  vaultKey: string | null = randomBytes(32).toString("base64"),
): Promise<void> {
  const url = await cluster.createDatabase(`replicas_${++databases}`);
  const a = await replica("a", url, vaultKey);
  try {
    const b = await replica("b", url, vaultKey);
    try {
      await fn(a, b, url);
    } finally {
      await b.close();
    }
  } finally {
    await a.close();
  }
}

function resultOf(response: ExecuteResponse): unknown {
  assert.equal(response.error, undefined, JSON.stringify(response.error));
  return response.answer?.structured.result;
}

/** A program storing `observations` in the memory server as entity `name`. */
function storeObservations(name: string, observations: string[]): string {
  return `await tools.memory.create_entities({ entities: [{ name: ${JSON.stringify(name)}, entityType: "note", observations: ${JSON.stringify(observations)} }] });
          return "stored";`;
}

describe("two gateways on one PostgreSQL store", () => {
  test("a workspace file written by a program on one replica is read by a program on the other", () =>
    withReplicas(async (a, b) => {
      resultOf(
        await a.execute({ session: "s", code: 'await workspace.writeFile("notes.txt", "from A"); return 1' }),
      );
      assert.equal(
        resultOf(await b.execute({ session: "s", code: 'return await workspace.readFile("notes.txt")' })),
        "from A",
      );
      resultOf(await b.execute({ session: "s", code: 'await workspace.remove("notes.txt"); return 1' }));
      const listed = await a.execute({ session: "s", code: "return (await workspace.list()).length" });
      assert.equal(resultOf(listed), 0);
    }));

  test("a PII token returned by one replica is detokenized by the other before it reaches the upstream", () =>
    withReplicas(async (a, b, url) => {
      const made = await a.execute({ session: "crm", code: 'return "contact ann@example.org"' });
      assert.equal(resultOf(made), "contact [EMAIL_1]");
      const passed = await b.execute({
        session: "crm",
        code: storeObservations("lead", ["email: [EMAIL_1]"]),
      });
      assert.equal(resultOf(passed), "stored");
      assert.match(received(url, "b"), /email: ann@example\.org/, "the upstream got the real address");
      assert.ok(!JSON.stringify(passed).includes("ann@example.org"), "the address never left B");
      // And B numbers on from A's tokens.
      assert.equal(
        resultOf(await b.execute({ session: "crm", code: 'return "bob@example.org"' })),
        "[EMAIL_2]",
      );
    }));

  test("replicas tokenizing different values for one session at once never give one token to two values", () =>
    withReplicas(async (a, b, url) => {
      const tokenOf = new Map<string, string>();
      for (let round = 0; round < 3; round++) {
        const emails = (name: string) =>
          Array.from({ length: 4 }, (_, i) => `${name}${round}-${i}@example.org`);
        const [fromA, fromB] = [emails("a"), emails("b")];
        const [tokensA, tokensB] = await Promise.all([
          a.execute({ session: "busy", code: `return ${JSON.stringify(fromA)}` }),
          b.execute({ session: "busy", code: `return ${JSON.stringify(fromB)}` }),
        ]);
        for (const [values, response] of [
          [fromA, tokensA],
          [fromB, tokensB],
        ] as const) {
          const tokens = resultOf(response) as string[];
          for (const [i, token] of tokens.entries()) {
            assert.match(token, /^\[EMAIL_\d+\]$/);
            tokenOf.set(values[i] as string, token);
          }
        }
      }
      const tokens = [...tokenOf.values()];
      assert.equal(new Set(tokens).size, tokens.length, `one token per value: ${tokens.join(" ")}`);
      // Every token resolves, on both replicas, to the value it was given for.
      for (const [name, gateway] of [
        ["a", a],
        ["b", b],
      ] as const) {
        resultOf(await gateway.execute({ session: "busy", code: storeObservations(`all-${name}`, tokens) }));
        const stored = received(url, name);
        for (const [value, token] of tokenOf) {
          assert.ok(stored.includes(`"${value}"`), `${name} resolved ${token} to ${value}`);
        }
      }
    }));

  test("without a vault key, tokens do not cross replicas (and the start says so)", async () => {
    warnings.length = 0;
    await withReplicas(async (a, b, url) => {
      assert.equal(warnings.filter((line) => line.includes("tokens will not cross replicas")).length, 2);
      assert.equal(
        resultOf(await a.execute({ session: "s", code: 'return "ann@example.org"' })),
        "[EMAIL_1]",
      );
      resultOf(await b.execute({ session: "s", code: storeObservations("lead", ["[EMAIL_1]"]) }));
      assert.match(received(url, "b"), /"\[EMAIL_1\]"/, "B cannot resolve A's token");
    }, null);
  });
});

describe("a gateway whose PostgreSQL store stops answering", () => {
  test("executions answer StoreUnavailable, the gateway keeps serving, and recovers when the store is back", async () => {
    const url = new URL(await cluster.createDatabase(`replicas_${++databases}`));
    const proxy = await startLoopbackProxy(Number(url.port));
    url.port = String(proxy.port);
    url.password = "secret";
    const store = await openPostgresStore({ url: url.toString(), connectionTimeoutMs: 1_000 });
    const gateway = new Gateway({
      config: { mcpServers: {}, toolscript: { storage: { url: url.toString() } } },
      store,
    });
    await gateway.start();
    try {
      assert.equal(resultOf(await gateway.execute({ session: "s", code: "return 1" })), 1);
      proxy.cut();
      const down = await gateway.execute({ session: "s", code: "return 2" });
      assert.equal(down.error?.name, "StoreUnavailable");
      assert.equal(down.error?.kind, "runtime");
      assert.match(
        down.error?.message ?? "",
        /^the store at postgres:\/\/toolscript@127\.0\.0\.1:\d+\/replicas_\d+ does not answer/,
      );
      assert.ok(!JSON.stringify(down).includes("secret"));
      const text = formatExecuteAnswer(down).content[0];
      assert.match(text?.type === "text" ? text.text : "", /StoreUnavailable.*does not answer/);
      proxy.restore();
      assert.equal(resultOf(await gateway.execute({ session: "s", code: "return 3" })), 3);
    } finally {
      await gateway.close();
      await proxy.close();
    }
  });
});
