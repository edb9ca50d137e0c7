import { randomBytes } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { delimiter, join } from "node:path";
import { Gateway } from "../../src/gateway/gateway.ts";
import type { SandboxRuntime } from "../../src/sandbox/types.ts";
import { SCRIPTED_JS, tempDir } from "../helpers/servers.ts";
import { type Attack, attacks } from "./attacks.ts";

export interface AttackOutcome {
  attack: Attack;
  /** What happened, in a few words: the error kind and name, or "result". */
  outcome: string;
  problems: string[];
  ms: number;
}

export interface Canaries {
  secret: string;
  fileContent: string;
  httpBody: string;
  file: string;
  url: string;
  close(): Promise<void>;
}

/**
 * Whether `bwrap` is on PATH. The process tier runs Deno inside it; where it is
 * missing the suites run Deno alone (`bubblewrap: false`, the explicit weaker
 * mode) and say so in the test's name, so the gateway side is still attacked.
 */
export function bubblewrapInstalled(): boolean {
  return (process.env.PATH ?? "")
    .split(delimiter)
    .some((dir) => dir !== "" && existsSync(join(dir, "bwrap")));
}

/** Error names can be megabytes long (an attack sets them): a report shows their start. */
export function describeOutcome(error: { kind: string; name: string } | undefined): string {
  return error ? `${error.kind}: ${error.name.slice(0, 80)}` : "bounded result";
}

/** A secret in the gateway's environment, a file and a loopback HTTP server, each with a random value. */
export async function plantCanaries(): Promise<Canaries> {
  const dir = tempDir("canary");
  const secret = `canary-env-${randomBytes(8).toString("hex")}`;
  const fileContent = `canary-file-${randomBytes(8).toString("hex")}`;
  const httpBody = `canary-http-${randomBytes(8).toString("hex")}`;
  process.env.TOOLSCRIPT_CANARY_SECRET = secret;
  const file = join(dir.path, "canary.txt");
  writeFileSync(file, fileContent);
  const server: Server = createServer((_request, response) => response.end(httpBody));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    secret,
    fileContent,
    httpBody,
    file,
    url: `http://127.0.0.1:${port}/canary.js`,
    async close() {
      delete process.env.TOOLSCRIPT_CANARY_SECRET;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      dir.remove();
    },
  };
}

/** The sandbox's wall-clock limit in the suites: short, since a dozen attacks run into it on purpose. */
export const ATTACK_TIMEOUT_MS = 1000;

/** Run after each attack: the sandbox must start clean, whatever the attack left behind. */
export const NEXT_RUN = "return [typeof leftover, ({}).leak, [].push(1), typeof Object.prototype.polluted]";
export const CLEAN_NEXT = JSON.stringify(["undefined", null, 1, "undefined"]);

/** Runs every attack against a gateway using `runtime`, each followed by a clean execution. */
export async function runAttacks(runtime: SandboxRuntime, canaries: Canaries): Promise<AttackOutcome[]> {
  const gateway = new Gateway({
    config: {
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      // Attacks skip the type check (as hostile code would): the sandbox alone must hold.
      toolscript: { sandbox: { timeoutMs: ATTACK_TIMEOUT_MS, memoryMb: 64, typecheck: false } },
    },
    runtime,
  });
  await gateway.start();
  const outcomes: AttackOutcome[] = [];
  try {
    for (const attack of attacks(canaries).filter((attack) => !attack.serveOnly)) {
      const started = performance.now();
      const response = await gateway.execute({ code: attack.code, context: {} });
      const ms = performance.now() - started;
      const problems: string[] = [];
      const problem = attack.check(response);
      if (problem) problems.push(problem);
      const text = JSON.stringify(response);
      for (const [what, value] of [
        ["env secret", canaries.secret],
        ["file content", canaries.fileContent],
        ["http body", canaries.httpBody],
      ] as const) {
        if (text.includes(value)) problems.push(`${what} leaked`);
      }
      const nextStarted = performance.now();
      const next = await gateway.execute(NEXT_RUN);
      const nextMs = performance.now() - nextStarted;
      if (JSON.stringify(next.result) !== CLEAN_NEXT) {
        problems.push(`next execution saw ${JSON.stringify(next.result ?? next.error)}`);
      }
      if (nextMs > 1000) problems.push(`next execution took ${Math.round(nextMs)} ms`);
      const outcome = describeOutcome(response.error);
      outcomes.push({ attack, outcome, problems, ms });
    }
  } finally {
    await gateway.close();
  }
  return outcomes;
}
