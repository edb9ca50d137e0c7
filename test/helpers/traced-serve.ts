import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliArgs } from "./servers.ts";

/** Polls `probe` every 50 ms until it returns a value; throws after `timeoutMs`. */
export async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface TracedServeOptions {
  /** The upstream servers (`mcpServers`); serving waits until each is ready. */
  mcpServers: Record<string, { command: string; args: string[] }>;
  /** More `toolscript` settings (e.g. passThrough). */
  toolscript?: Record<string, unknown>;
  /** The OTEL_* variables (and any other) of the gateway's process, over a 50 ms batch delay. */
  env: Record<string, string>;
}

export type TracedGateway = Awaited<ReturnType<typeof serveTraced>>;

/**
 * `toolscript serve --http 127.0.0.1:0` in `dir` with `options.env`; resolves once it serves
 * and every upstream is ready. Stop it with `stop`.
 */
export async function serveTraced(dir: string, options: TracedServeOptions) {
  const data = join(dir, "data");
  mkdirSync(data, { recursive: true });
  const config = join(dir, "toolscript.config.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: options.mcpServers,
      toolscript: {
        storage: { dir: data },
        sandbox: { typecheck: false },
        server: { http: { allowUnauthenticatedLoopback: true } },
        ...options.toolscript,
      },
    }),
  );
  const child = spawn(process.execPath, cliArgs("serve", "--config", config, "--http", "127.0.0.1:0"), {
    cwd: dir,
    env: { ...withoutOtel(process.env), OTEL_BSP_SCHEDULE_DELAY: "50", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const gateway = { child, stderr: "", stdout: "", url: "" };
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    gateway.stdout += chunk;
  });
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    gateway.stderr += chunk;
  });
  const names = Object.keys(options.mcpServers);
  gateway.url = await until(
    "the gateway to serve and its servers to be ready",
    () => {
      if (child.exitCode !== null)
        throw new Error(`gateway exited with ${child.exitCode}: ${gateway.stderr}`);
      if (!names.every((name) => gateway.stderr.includes(`${name}: ready`))) return undefined;
      return /serving MCP over Streamable HTTP at (\S+)/.exec(gateway.stderr)?.[1];
    },
    30_000,
  );
  return gateway;
}

/** The environment without OTEL_* variables: the test's own settings only. */
function withoutOtel(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("OTEL_")));
}

/** Sends `signal` and resolves with the exit code (at once if it already exited). */
export async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill(signal);
  return exited;
}
