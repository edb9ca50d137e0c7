import { existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ExecuteResponse } from "../../src/gateway/types.ts";
import { cliArgs, isAlive, REPO_ROOT, SCRIPTED_JS, tempDir } from "../helpers/servers.ts";
import { newestSourceMtime } from "../helpers/source-mtime.ts";
import { type Attack, attacks } from "./attacks.ts";
import { PYTHON_CLEAN_NEXT, PYTHON_NEXT_RUN } from "./python-attacks.ts";
import {
  ATTACK_TIMEOUT_MS,
  type AttackOutcome,
  bubblewrapInstalled,
  type Canaries,
  CLEAN_NEXT,
  describeOutcome,
  NEXT_RUN,
} from "./run-attacks.ts";

/**
 * The attack suite as a stock MCP client meets the gateway: a real
 * `toolscript serve` process over stdio, driven by the SDK's own `Client`
 * (which refuses any message over 10 MiB and then closes the stream). Each
 * attack must get an answer that is an error or a bounded result, leak no
 * canary, and leave the process alive and answering a normal execution.
 */

export type ServeTier = "isolate" | "process";

/** Generous next to the sandbox's 1 s limit: only a gateway that stalls reaches it. */
const ANSWER_TIMEOUT_MS = 60_000;

/** How `serve` is started: the built `bin/toolscript.js` when dist/ is up to date with src/, else the sources through tsx. */
export function serveCommand(): { args: string[]; from: "dist" | "src" } {
  const built = join(REPO_ROOT, "dist/cli/main.js");
  const fresh = existsSync(built) && statSync(built).mtimeMs >= newestSourceMtime(join(REPO_ROOT, "src"));
  return fresh
    ? { args: [join(REPO_ROOT, "bin/toolscript.js")], from: "dist" }
    : { args: cliArgs(), from: "src" };
}

/**
 * The sandbox settings of a tier. The process tier runs Deno inside bubblewrap;
 * on a machine without `bwrap` it runs Deno alone (`bubblewrap: false`, the
 * documented explicit weaker mode), so the gateway side of every attack is
 * still exercised: `note` says so.
 */
export function tierSandbox(tier: ServeTier): { sandbox: Record<string, unknown>; note: string } {
  // Attacks skip the type check (as hostile code would): the sandbox alone must hold.
  const base = { timeoutMs: ATTACK_TIMEOUT_MS, memoryMb: 64, poolSize: 1, typecheck: false };
  if (tier === "isolate") return { sandbox: { ...base, runtime: "isolate" }, note: "isolate" };
  return bubblewrapInstalled()
    ? { sandbox: { ...base, runtime: "process" }, note: "process (Deno in bubblewrap)" }
    : {
        sandbox: { ...base, runtime: "process", bubblewrap: false },
        note: "process (Deno alone: bwrap not installed)",
      };
}

/** One `toolscript serve` child and the SDK client connected to it. */
export class ServeProcess {
  readonly #client: Client;
  readonly #transport: StdioClientTransport;
  #closed = false;
  #stderr = "";

  private constructor(client: Client, transport: StdioClientTransport) {
    this.#client = client;
    this.#transport = transport;
  }

  static async start(configFile: string, env: Record<string, string>): Promise<ServeProcess> {
    const { args } = serveCommand();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...args, "serve", "--config", configFile],
      env,
      stderr: "pipe",
    });
    const client = new Client({ name: "attack-suite", version: "1.0.0" });
    const serve = new ServeProcess(client, transport);
    transport.stderr?.on("data", (chunk: Buffer) => {
      // The last few KiB say why a process died.
      serve.#stderr = (serve.#stderr + chunk.toString("utf8")).slice(-4096);
    });
    client.onclose = () => {
      serve.#closed = true;
    };
    await client.connect(transport);
    return serve;
  }

  /** The process is running and its stream still open. */
  alive(): boolean {
    const pid = this.#transport.pid;
    return !this.#closed && pid !== null && isAlive(pid);
  }

  get stderrTail(): string {
    return this.#stderr;
  }

  /** One `execute_code` call; rejects when no answer comes (stream closed, message refused, timeout). */
  async execute(code: string, language?: "python"): Promise<CallToolResult> {
    const args = language === undefined ? { code } : { code, language };
    return (await this.#client.callTool({ name: "execute_code", arguments: args }, undefined, {
      timeout: ANSWER_TIMEOUT_MS,
    })) as CallToolResult;
  }

  async close(): Promise<void> {
    await this.#client.close().catch(() => {});
  }
}

/** The answer's structured content, in the shape the attacks' checks read. */
export function responseOf(answer: CallToolResult): ExecuteResponse {
  const structured = (answer.structuredContent ?? {}) as {
    result?: unknown;
    logs?: ExecuteResponse["logs"];
    toolCalls?: number;
    durationMs?: number;
    error?: ExecuteResponse["error"];
  };
  return {
    result: structured.result,
    logs: Array.isArray(structured.logs) ? structured.logs : [],
    toolCalls: structured.toolCalls ?? 0,
    durationMs: structured.durationMs ?? 0,
    ...(structured.error && { error: structured.error }),
  } as ExecuteResponse;
}

export interface ServeRun {
  tier: string;
  from: "dist" | "src";
  outcomes: AttackOutcome[];
  /** Processes started beyond the first: each one means an attack ended the gateway. */
  restarts: number;
}

/**
 * Runs every attack against one `serve` process per tier, reused across
 * attacks and restarted only when it died (that attack fails).
 */
export async function runAttacksOverServe(
  tier: ServeTier,
  canaries: Canaries,
  only: (attack: Attack) => boolean = () => true,
  corpus: (canaries: Canaries) => Attack[] = attacks,
): Promise<ServeRun> {
  const dir = tempDir(`serve-attacks-${tier}`);
  const { sandbox, note } = tierSandbox(tier);
  const configFile = join(dir.path, "toolscript.config.json");
  writeFileSync(
    configFile,
    JSON.stringify({
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      toolscript: { sandbox, storage: { dir: join(dir.path, "store") } },
    }),
  );
  // The gateway's environment holds the canary secret, as a real deployment holds its keys.
  const env = { ...(process.env as Record<string, string>), TOOLSCRIPT_CANARY_SECRET: canaries.secret };
  const outcomes: AttackOutcome[] = [];
  let restarts = 0;
  let serve = await ServeProcess.start(configFile, env);
  try {
    for (const attack of corpus(canaries).filter(only)) {
      const problems: string[] = [];
      const started = performance.now();
      let outcome = "no answer";
      try {
        const answer = await serve.execute(attack.code, attack.language);
        const response = responseOf(answer);
        outcome = describeOutcome(response.error);
        const problem = attack.check(response);
        if (problem) problems.push(problem);
        problems.push(...leaks(JSON.stringify(answer), canaries));
      } catch (error) {
        problems.push(`no answer: ${error instanceof Error ? error.message : String(error)}`);
      }
      const ms = performance.now() - started;
      if (serve.alive()) {
        try {
          const python = attack.language === "python";
          const next = responseOf(await serve.execute(python ? PYTHON_NEXT_RUN : NEXT_RUN, attack.language));
          if (JSON.stringify(next.result) !== (python ? PYTHON_CLEAN_NEXT : CLEAN_NEXT))
            problems.push(`next execution saw ${JSON.stringify(next.result ?? next.error)}`);
        } catch (error) {
          problems.push(
            `next execution got no answer: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      if (!serve.alive()) {
        problems.push(
          `the gateway process ended (${serve.stderrTail.trim().split("\n").slice(-2).join(" | ")})`,
        );
        await serve.close();
        restarts++;
        serve = await ServeProcess.start(configFile, env);
      }
      outcomes.push({ attack, outcome, problems, ms });
    }
  } finally {
    await serve.close();
    dir.remove();
  }
  return { tier: note, from: serveCommand().from, outcomes, restarts };
}

function leaks(text: string, canaries: Canaries): string[] {
  const found: string[] = [];
  for (const [what, value] of [
    ["env secret", canaries.secret],
    ["file content", canaries.fileContent],
    ["http body", canaries.httpBody],
  ] as const) {
    if (text.includes(value)) found.push(`${what} leaked`);
  }
  return found;
}
