import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isProcessAlive } from "../../src/store/process-alive.ts";
import type { UpstreamServerConfig } from "../../src/upstream/types.ts";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const modules = join(REPO_ROOT, "node_modules/@modelcontextprotocol");

export const EVERYTHING_JS = join(modules, "server-everything/dist/index.js");
export const FILESYSTEM_JS = join(modules, "server-filesystem/dist/index.js");
export const MEMORY_JS = join(modules, "server-memory/dist/index.js");
export const SCRIPTED_JS = join(REPO_ROOT, "test/servers/scripted-server.mjs");

export function stdioServer(
  name: string,
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
) {
  return {
    kind: "stdio",
    name,
    command: process.execPath,
    args: [script, ...args],
    env,
    disabled: false,
  } satisfies UpstreamServerConfig;
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `toolscript-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A free loopback port, picked by the OS. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolvePort(address.port) : reject()));
    });
  });
}

/** Starts server-everything over HTTP (Streamable HTTP or legacy SSE) on a loopback port. */
export async function startEverythingHttp(
  mode: "streamableHttp" | "sse" = "streamableHttp",
): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING_JS, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error("server-everything did not start in 15 s")), 15_000);
    let seen = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      seen += chunk;
      if (/listening|running on port/i.test(seen)) {
        clearTimeout(timer);
        ready();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`server-everything exited with ${code}: ${seen}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`,
    child,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
}

/** True when a process with this pid is running; a zombie (killed, not yet reaped) counts as dead. */
export const isAlive = isProcessAlive;

export const RUN_CLI = join(REPO_ROOT, "test/helpers/run-cli.ts");

/** Arguments that run the CLI from source with this Node: `[node, ...cliArgs(...)]`. */
export function cliArgs(...args: string[]): string[] {
  // Resolved here, so the child finds tsx whatever its working directory.
  return ["--import", import.meta.resolve("tsx"), RUN_CLI, ...args];
}
