import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
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

const NEXT_RUN = "return [typeof leftover, ({}).leak, [].push(1), typeof Object.prototype.polluted]";
const CLEAN_NEXT = JSON.stringify(["undefined", null, 1, "undefined"]);

/** Runs every attack against a gateway using `runtime`, each followed by a clean execution. */
export async function runAttacks(runtime: SandboxRuntime, canaries: Canaries): Promise<AttackOutcome[]> {
  const gateway = new Gateway({
    config: {
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      // Attacks skip the type check (as hostile code would): the sandbox alone must hold.
      toolscript: { sandbox: { timeoutMs: 2000, memoryMb: 64, typecheck: false } },
    },
    runtime,
  });
  await gateway.start();
  const outcomes: AttackOutcome[] = [];
  try {
    for (const attack of attacks(canaries)) {
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
      const outcome = response.error ? `${response.error.kind}: ${response.error.name}` : "bounded result";
      outcomes.push({ attack, outcome, problems, ms });
    }
  } finally {
    await gateway.close();
  }
  return outcomes;
}
