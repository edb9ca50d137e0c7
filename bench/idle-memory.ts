// Memory of an idle gateway: `toolscript serve` (the built CLI, stdio) with three
// real upstream servers and a plain SDK client, RSS read from /proc/<pid>/status
// once the upstreams are ready, after the first execution (one tool call) has
// settled, and after a first search. The goal: ≤ 150 MB after the first execution.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { FILESYSTEM_JS, MEMORY_JS, SCRIPTED_JS, tempDir } from "../test/helpers/servers.ts";
import { builtCli } from "./built-cli.ts";
import { descendants, type ProcessMemory, settled } from "./proc-memory.ts";
import { percentile, printTable, progress } from "./table.ts";

const GOAL_MB = 150;
const ROUNDS = 5;
const UPSTREAMS = [SCRIPTED_JS, MEMORY_JS, FILESYSTEM_JS];
const READY_TIMEOUT_MS = 30_000;

interface Round {
  start: ProcessMemory;
  executed: ProcessMemory;
  searched: ProcessMemory;
  /** RSS of the gateway's own child processes (not the upstreams), after the execution. */
  helpersMb: number;
}

/** Resolves once stderr has said `count` servers are ready. */
function serversReady(transport: StdioClientTransport, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(
      () => reject(new Error(`upstreams not ready in ${READY_TIMEOUT_MS} ms; stderr:\n${seen}`)),
      READY_TIMEOUT_MS,
    );
    transport.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      if ((seen.match(/: ready, \d+ tools/g) ?? []).length >= count) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
}

async function oneRound(bin: string, settings: Record<string, unknown>): Promise<Round> {
  const dir = tempDir("bench-idle-memory");
  const configPath = join(dir.path, "toolscript.config.json");
  writeFileSync(
    configPath,
    JSON.stringify({
      mcpServers: {
        scripted: { command: process.execPath, args: [SCRIPTED_JS] },
        memory: {
          command: process.execPath,
          args: [MEMORY_JS],
          env: { MEMORY_FILE_PATH: join(dir.path, "memory.jsonl") },
        },
        filesystem: { command: process.execPath, args: [FILESYSTEM_JS, dir.path] },
      },
      toolscript: { ...settings, storage: { dir: join(dir.path, "data") } },
    }),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, "serve", "--config", configPath],
    cwd: dir.path,
    stderr: "pipe",
    env: { ...(process.env as Record<string, string>), NO_COLOR: "1" },
  });
  const ready = serversReady(transport, UPSTREAMS.length);
  const client = new Client({ name: "bench-idle-memory", version: "1" });
  try {
    await client.connect(transport);
    const pid = transport.pid;
    if (pid === null) throw new Error("the gateway has no pid");
    await ready;
    const start = await settled(pid);
    await call(client, "execute_code", { code: 'return await tools.scripted.echo({ message: "hello" });' });
    const executed = await settled(pid);
    const helpersMb = descendants(pid)
      .filter((child) => !UPSTREAMS.some((script) => child.command.includes(script)))
      .reduce((sum, child) => sum + child.rssMb, 0);
    await call(client, "search_tools", { query: "read a file" });
    const searched = await settled(pid);
    return { start, executed, searched, helpersMb };
  } finally {
    await client.close();
    dir.remove();
  }
}

export async function benchIdleMemory(): Promise<void> {
  const bin = builtCli();
  const cases: Array<[string, Record<string, unknown>]> = [
    ["defaults", {}],
    ["sandbox.typecheck: false", { sandbox: { typecheck: false } }],
    // What a gateway left idle comes down to once the checker's worker is stopped (default after 120 s).
    ["sandbox.typecheckIdleSeconds: 1", { sandbox: { typecheckIdleSeconds: 1 } }],
  ];
  const rows: string[][] = [];
  for (const [label, settings] of cases) {
    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      progress(`idle memory: ${label}, round ${round + 1}/${ROUNDS}`);
      rounds.push(await oneRound(bin, settings));
    }
    const median = (pick: (round: Round) => number) =>
      percentile(
        rounds.map(pick).sort((a, b) => a - b),
        50,
      ).toFixed(0);
    const executed = Number(median((round) => round.executed.rssMb));
    rows.push([
      label,
      median((round) => round.start.rssMb),
      String(executed),
      executed <= GOAL_MB ? "yes" : "no",
      median((round) => round.executed.peakMb),
      median((round) => round.searched.rssMb),
      median((round) => round.helpersMb),
    ]);
  }
  printTable(
    `Idle gateway: toolscript serve (stdio) with 3 upstreams (scripted, memory, filesystem), RSS in MB, median of ${ROUNDS} (goal ≤ ${GOAL_MB} MB after the first execution)`,
    [
      "settings",
      "after start",
      "after 1st execution",
      `≤ ${GOAL_MB}`,
      "peak (VmHWM) by then",
      "after a 1st search",
      "own child processes",
    ],
    rows,
  );
}
