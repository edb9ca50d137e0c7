import { spawn } from "node:child_process";
import { cliArgs } from "./servers.ts";

export interface AsyncCliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The CLI from source in a child process, awaited without blocking this one: a
 * model stub or server the command talks to answers from this same process
 * (spawnSync would stall it). No colour, no model API keys from this environment;
 * `interruptWhen` sends one Ctrl-C (SIGINT) once stderr matches it.
 */
export function runCliAsync(
  cwd: string,
  args: string[],
  options: { interruptWhen?: RegExp; timeoutMs?: number } = {},
): Promise<AsyncCliRun> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  for (const name of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "FORCE_COLOR"]) delete env[name];
  const child = spawn(process.execPath, cliArgs(...args), { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let interrupted = false;
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 90_000);
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
    if (!interrupted && options.interruptWhen?.test(stderr)) {
      interrupted = true;
      child.kill("SIGINT");
    }
  });
  return new Promise((resolve) => {
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
