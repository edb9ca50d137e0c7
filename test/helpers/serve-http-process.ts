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

export interface ServeHttpProcessOptions {
  /** The upstream servers (`mcpServers`); serving waits until each is ready. */
  mcpServers: Record<string, { command: string; args: string[] }>;
  /** More `toolscript` settings (e.g. `storage.url`, passThrough). */
  toolscript?: Record<string, unknown>;
  /** Variables over the test's environment (whose OTEL_* variables are left out). */
  env?: Record<string, string>;
  /** The config file's name in `dir` (several processes in one folder need one each). */
  configName?: string;
}

export interface ServedProcess {
  readonly child: ChildProcess;
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly stderr: string;
  readonly stdout: string;
}

/**
 * `toolscript serve --http 127.0.0.1:0` in `dir` (data in `dir/data` unless the
 * settings say otherwise), anonymous on loopback, type checking off; resolves once
 * it serves and every upstream is ready. Stop it with `stop`.
 */
export async function serveHttpProcess(
  dir: string,
  options: ServeHttpProcessOptions,
): Promise<ServedProcess> {
  const data = join(dir, "data");
  mkdirSync(data, { recursive: true });
  const config = join(dir, options.configName ?? "toolscript.config.json");
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
    env: { ...withoutOtel(process.env), ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const served = { child, stderr: "", stdout: "", url: "" };
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    served.stdout += chunk;
  });
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    served.stderr += chunk;
  });
  const names = Object.keys(options.mcpServers);
  try {
    served.url = await until(
      "the gateway to serve and its servers to be ready",
      () => {
        if (child.exitCode !== null)
          throw new Error(`gateway exited with ${child.exitCode}: ${served.stderr}`);
        if (!names.every((name) => served.stderr.includes(`${name}: ready`))) return undefined;
        return /serving MCP over Streamable HTTP at (\S+)/.exec(served.stderr)?.[1];
      },
      60_000,
    );
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return served;
}

/** Sends `signal` and resolves with the exit code (at once if it already exited). */
export async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill(signal);
  return exited;
}

/** The environment without OTEL_* variables: the test's own settings only. */
function withoutOtel(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("OTEL_")));
}
