import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliArgs, SCRIPTED_JS, tempDir } from "./servers.ts";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The CLI tests' harness: a temporary folder with a good config (one scripted
 * server), and ways to run the built CLI in it. The CLI tests are split over
 * files so that each stays well inside the runner's per-file time limit.
 */
export function cliHarness(name: string) {
  const dir = tempDir(name);
  const goodConfig = join(dir.path, "good.json");
  writeFileSync(
    goodConfig,
    JSON.stringify({ mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } } }),
  );

  /** The CLI in `cwd`, with `env` over a copy of this environment without colour or vault settings. */
  function cliIn(cwd: string, env: Record<string, string>, ...args: string[]): CliResult {
    const base = { ...process.env };
    // CI=true turns citty's colours off whatever FORCE_COLOR says: these tests decide colour themselves.
    for (const name of ["NO_COLOR", "FORCE_COLOR", "TOOLSCRIPT_VAULT_KEY", "CI"]) delete base[name];
    const result = spawnSync(process.execPath, cliArgs(...args), {
      encoding: "utf8",
      timeout: 30_000,
      cwd,
      env: { ...base, ...env },
      input: "",
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  /**
   * `serve` on stdio in `cwd`, kept open until stderr matches `until` (servers join after serve
   * starts answering) or 30 s pass; then its stdin ends, and it exits as a client's disconnect ends it.
   */
  function serveIn(cwd: string, until: RegExp): Promise<CliResult> {
    const base = { ...process.env };
    for (const name of ["NO_COLOR", "FORCE_COLOR", "TOOLSCRIPT_VAULT_KEY"]) delete base[name];
    const child = spawn(process.execPath, cliArgs("serve"), { cwd, env: base });
    let stdout = "";
    let stderr = "";
    const end = () => child.stdin.end();
    const timer = setTimeout(end, 30_000);
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      if (until.test(stderr)) end();
    });
    return new Promise((resolve) => {
      child.on("exit", (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  function folder(name: string, files: Record<string, unknown>): string {
    const path = join(dir.path, name);
    mkdirSync(path, { recursive: true });
    for (const [file, content] of Object.entries(files))
      writeFileSync(join(path, file), JSON.stringify(content));
    return path;
  }

  return {
    dir,
    goodConfig,
    cli: (...args: string[]) => cliIn(dir.path, {}, ...args),
    cliIn,
    serveIn,
    folder,
  };
}
