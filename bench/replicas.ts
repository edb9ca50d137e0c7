// `npm run bench -- replicas`: executions per second with 1, 2 and 3 `serve --http`
// replicas on one PostgreSQL store against one replica on SQLite (same machine,
// same workload, stateless 2026-07-28 clients spread round-robin as a load
// balancer would), then the latency of single store operations on both engines.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { SharedStore } from "../src/store/domains.ts";
import { openPostgresStore } from "../src/store/postgres/postgres-store.ts";
import { openSqliteSharedStore } from "../src/store/sqlite-shared-store.ts";
import { startPostgres } from "../test/helpers/postgres-cluster.ts";
import { type ServedProcess, serveHttpProcess, stop } from "../test/helpers/serve-http-process.ts";
import { SCRIPTED_JS, tempDir } from "../test/helpers/servers.ts";
import { ms, percentile, printTable, progress } from "./table.ts";

const WORKERS = 12;
const WARMUP_MS = 2_000;
const MEASURE_MS = 8_000;
const STORE_OPS = 300;
/** Each execution: a workspace write and read, and a tool call (store, sandbox and upstream). */
const PROGRAM = [
  "const path = 'runs/' + Date.now() + '-' + Math.random() + '.txt';",
  "await workspace.writeFile(path, 'x'.repeat(2000));",
  "const text = await workspace.readFile(path);",
  "const echoed = await tools.scripted.echo({ message: 'hi' });",
  "return [text.length, echoed];",
].join("\n");

interface Scenario {
  name: string;
  replicas: number;
  /** The store: a PostgreSQL database URL, or undefined for each replica's own SQLite directory. */
  url: string | undefined;
}

async function runScenario(scenario: Scenario, vaultKey: string): Promise<string[]> {
  const dir = tempDir("replicas");
  const served: ServedProcess[] = [];
  const clients: Client[][] = [];
  try {
    for (let i = 0; i < scenario.replicas; i++) {
      progress(`${scenario.name}: starting replica ${i + 1} of ${scenario.replicas}`);
      served.push(
        await serveHttpProcess(dir.path, {
          configName: `replica-${i}.json`,
          mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
          toolscript: {
            ...(scenario.url !== undefined && { storage: { url: scenario.url } }),
            audit: { stderr: "off" },
            // The bench's clients are one anonymous client: its per-client limit would measure itself.
            server: { http: { allowUnauthenticatedLoopback: true, executionsPerMinute: 0 } },
            sandbox: { typecheck: false, maxConcurrent: 8, maxQueued: 256 },
          },
          env: { TOOLSCRIPT_VAULT_KEY: vaultKey, TOOLSCRIPT_REPLICA: `replica-${i}` },
        }),
      );
    }
    for (let worker = 0; worker < WORKERS; worker++) {
      const perReplica: Client[] = [];
      for (const replica of served) {
        const client = new Client(
          { name: `bench-${worker}`, version: "1" },
          { versionNegotiation: { mode: "auto" } },
        );
        await client.connect(new StreamableHTTPClientTransport(new URL(replica.url)));
        perReplica.push(client);
      }
      clients.push(perReplica);
    }
    progress(
      `${scenario.name}: ${WORKERS} clients, ${WARMUP_MS / 1000} s warm-up, ${MEASURE_MS / 1000} s measured`,
    );
    const latencies: number[] = [];
    let errors = 0;
    let firstError = "";
    const started = performance.now();
    const measureFrom = started + WARMUP_MS;
    const end = measureFrom + MEASURE_MS;
    await Promise.all(
      clients.map(async (perReplica, worker) => {
        for (let turn = worker; performance.now() < end; turn++) {
          // Round-robin over the replicas, as a load balancer without stickiness.
          const client = perReplica[turn % perReplica.length] as Client;
          const t0 = performance.now();
          const answer = (await client.callTool({
            name: "execute_code",
            arguments: { code: PROGRAM, session: `worker-${worker}` },
          })) as { isError?: boolean; content?: Array<{ text?: string }> };
          const t1 = performance.now();
          if (t0 < measureFrom) continue;
          if (answer.isError) {
            errors += 1;
            firstError ||= (answer.content ?? [])
              .map((part) => part.text ?? "")
              .join(" ")
              .slice(0, 200);
          } else latencies.push(t1 - t0);
        }
      }),
    );
    if (firstError) progress(`${scenario.name}: first error: ${firstError}`);
    latencies.sort((a, b) => a - b);
    const perSecond = latencies.length / (MEASURE_MS / 1000);
    return [
      scenario.name,
      String(scenario.replicas),
      perSecond.toFixed(1),
      ms(percentile(latencies, 50)),
      ms(percentile(latencies, 95)),
      String(errors),
    ];
  } finally {
    for (const perReplica of clients) for (const client of perReplica) await client.close().catch(() => {});
    for (const replica of served) await stop(replica.child, "SIGTERM");
    dir.remove();
  }
}

type Op = { name: string; run: (i: number) => Promise<unknown> };

/** p50 and p95 of each single store operation, run one at a time. */
async function storeOps(engine: string, store: SharedStore): Promise<string[][]> {
  const session = `bench-${randomBytes(4).toString("hex")}`;
  const bytes = randomBytes(4096);
  const limits = { maxTotalBytes: 1 << 30, maxFiles: 100_000 };
  const code = "export default function add(a: number, b: number) { return a + b; }";
  await store.sessions.touch(session);
  await store.sessions.writeFile(session, "read-me.bin", bytes, limits);
  await store.skills.save({ name: "bench_add", code, description: "Adds two numbers.", declaration: "" });
  const ops: Op[] = [
    {
      name: "workspace write (4 KB)",
      run: (i) => store.sessions.writeFile(session, `f/${i}.bin`, bytes, limits),
    },
    { name: "workspace read (4 KB)", run: () => store.sessions.readFile(session, "read-me.bin") },
    { name: "workspace list", run: () => store.sessions.listFiles(session, "f") },
    { name: "skill import (latest version)", run: () => store.skills.get("bench_add") },
    {
      name: "skill save (new version)",
      run: () =>
        store.skills.save({ name: "bench_add", code, description: "Adds two numbers.", declaration: "" }),
    },
    { name: "session touch", run: () => store.sessions.touch(session) },
    { name: "rate-limit take", run: () => store.rateLimits.take(`bench:${session}`, 1_000_000) },
  ];
  const rows: string[][] = [];
  for (const op of ops) {
    const times: number[] = [];
    for (let i = 0; i < STORE_OPS; i++) {
      const t0 = performance.now();
      await op.run(i);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    rows.push([engine, op.name, ms(percentile(times, 50)), ms(percentile(times, 95))]);
  }
  return rows;
}

export async function benchReplicas(): Promise<void> {
  progress("replicas: starting a private PostgreSQL cluster");
  const cluster = await startPostgres();
  const vaultKey = randomBytes(32).toString("base64");
  try {
    const rows: string[][] = [];
    rows.push(await runScenario({ name: "SQLite", replicas: 1, url: undefined }, vaultKey));
    for (const replicas of [1, 2, 3]) {
      const url = await cluster.createDatabase(`bench_${replicas}`);
      rows.push(await runScenario({ name: "PostgreSQL", replicas, url }, vaultKey));
    }
    printTable(
      `Executions per second, ${WORKERS} stateless clients round-robin over the replicas (each execution: workspace write + read of 2 kB, one tool call; ${MEASURE_MS / 1000} s; all on this ${"machine's"} cores)`,
      ["store", "replicas", "executions/s", "p50 ms", "p95 ms", "errors"],
      rows,
    );

    const opRows: string[][] = [];
    const dir = tempDir("replicas-ops");
    const sqlite = openSqliteSharedStore({ dir: join(dir.path, "data") });
    try {
      progress("replicas: store operations on SQLite");
      opRows.push(...(await storeOps("SQLite", sqlite)));
    } finally {
      await sqlite.close();
      dir.remove();
    }
    const postgres = await openPostgresStore({ url: await cluster.createDatabase("bench_ops") });
    try {
      progress("replicas: store operations on PostgreSQL");
      opRows.push(...(await storeOps("PostgreSQL", postgres)));
    } finally {
      await postgres.close();
    }
    printTable(
      `One store operation at a time (${STORE_OPS} each; SQLite: a file in a data directory; PostgreSQL: a local cluster over TCP)`,
      ["store", "operation", "p50 ms", "p95 ms"],
      opRows,
    );
  } finally {
    await cluster.stop();
  }
}
