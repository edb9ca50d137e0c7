import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { type BubblewrapSetup, type SandboxCommand, sandboxCommand } from "./command.ts";
import { type PackageResolver, resolveDeno } from "./deno-binary.ts";
import { ProcessSandboxError } from "./errors.ts";
import { isExecutable } from "./executable.ts";
import { RUNNER_SOURCE } from "./runner-source.ts";
import { SandboxProcess } from "./sandbox-process.ts";

const run = promisify(execFile);

/** Directories searched for `bwrap` and `prlimit` besides PATH (a service may run with a bare PATH). */
const SYSTEM_BIN_DIRS = ["/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin", "/sbin"];
/** Time the start check gives one sandbox process to come up and answer. */
const CHECK_TIMEOUT_MS = 15_000;
const CHECK_MEMORY_MB = 32;
const NO_BUBBLEWRAP_HINT =
  "or set sandbox.bubblewrap: false to run Deno without it (weaker: no filesystem, user, PID or network namespaces; Deno's permission system is then the only wall). There is no automatic fallback to a weaker tier.";

export interface ProcessTierOptions {
  /** Run Deno inside bubblewrap (default). `false` must be chosen explicitly. */
  bubblewrap?: boolean;
  /** Deno executable; default: the binary of the `deno` npm package (an optional dependency). */
  denoPath?: string;
  /** How the `deno` package is found; default: Node's resolution from here (tests replace it). */
  resolvePackage?: PackageResolver;
  /** `bwrap` executable; default: found on PATH. */
  bubblewrapPath?: string;
  /** `prlimit` executable (util-linux); default: found on PATH. */
  prlimitPath?: string;
}

/** Everything the tier needs, checked to work on this machine. */
export interface ProcessTierSetup {
  deno: string;
  prlimit: string;
  bubblewrap: BubblewrapSetup | undefined;
}

/** The runner script and Deno's cache directory, private to one runtime. */
export interface RunnerFiles {
  dir: string;
  script: string;
  denoDir: string;
}

async function findExecutable(name: string): Promise<string | undefined> {
  const dirs = [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), ...SYSTEM_BIN_DIRS];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** The shared libraries a binary loads, as `ldd` lists them, each with its real file. */
export async function sharedLibraries(binary: string): Promise<BubblewrapSetup["libraries"]> {
  const { stdout } = await run("ldd", [binary], { env: { PATH: SYSTEM_BIN_DIRS.join(delimiter) } });
  const libraries: BubblewrapSetup["libraries"] = [];
  for (const line of stdout.split("\n")) {
    // "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" or "/lib64/ld-linux-x86-64.so.2 (0x...)"
    const match = /(?:=>\s*)?(\/\S+)\s+\(0x[0-9a-f]+\)/.exec(line);
    if (match?.[1] === undefined) continue;
    libraries.push({ path: match[1], source: await realpath(match[1]) });
  }
  return libraries;
}

async function resolveBubblewrap(options: ProcessTierOptions, deno: string): Promise<BubblewrapSetup> {
  const path = options.bubblewrapPath ?? (await findExecutable("bwrap"));
  if (path === undefined || !(await isExecutable(path))) {
    throw new ProcessSandboxError(
      "process.bubblewrap_missing",
      `The process sandbox tier runs Deno inside bubblewrap, but ${path ?? "bwrap"} was not found. Install it (Debian/Ubuntu: apt-get install bubblewrap), ${NO_BUBBLEWRAP_HINT}`,
    );
  }
  let libraries: BubblewrapSetup["libraries"];
  try {
    libraries = await sharedLibraries(deno);
  } catch (cause) {
    throw new ProcessSandboxError(
      "process.start_failed",
      `Could not list the shared libraries of ${deno} with ldd, so the sandbox cannot be built`,
      { cause },
    );
  }
  return { path, libraries };
}

async function resolvePrlimit(explicit: string | undefined): Promise<string> {
  const path = explicit ?? (await findExecutable("prlimit"));
  if (path === undefined || !(await isExecutable(path))) {
    throw new ProcessSandboxError(
      "process.prlimit_missing",
      "The process sandbox tier caps memory with prlimit (util-linux), which was not found. Install util-linux.",
    );
  }
  return path;
}

/** Writes the runner (the TypeScript one unless told) into a new private directory (sync: a runtime's constructor needs it). */
export function writeRunnerFiles(source: string = RUNNER_SOURCE): RunnerFiles {
  const dir = mkdtempSync(join(tmpdir(), "toolscript-process-"));
  const script = join(dir, "runner.js");
  const denoDir = join(dir, "deno-dir");
  writeFileSync(script, source);
  chmodSync(script, 0o444);
  mkdirSync(denoDir);
  return { dir, script, denoDir };
}

export function removeRunnerFiles(files: RunnerFiles): void {
  rmSync(files.dir, { recursive: true, force: true });
}

/** Starts one sandbox process and has it run `return 1 + 1`; throws with the reason when it cannot. */
async function probe(command: SandboxCommand, bubblewrap: boolean): Promise<void> {
  const child = new SandboxProcess(command);
  const timer = setTimeout(() => child.kill(), CHECK_TIMEOUT_MS);
  try {
    await child.ready;
    const report = await new Promise<unknown>((resolve, reject) => {
      child.attach((message) => {
        if (message.type === "done") resolve(message.report);
      });
      void child.exited.then(() => reject(new Error("the sandbox process ended without a result")));
      child.send({
        type: "run",
        code: "return 1 + 1",
        toolsJson: "{}",
        limitsJson: '{"maxLogBytes":100}',
        search: false,
      });
    });
    const ok = typeof report === "object" && report !== null && (report as { json?: unknown }).json === "2";
    if (!ok) throw new Error(`unexpected answer ${JSON.stringify(report)}`);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const hint = bubblewrap
      ? `bubblewrap may not be allowed to create user namespaces in this kernel or container; fix that, ${NO_BUBBLEWRAP_HINT}`
      : "check that the Deno binary runs on this machine.";
    throw new ProcessSandboxError(
      "process.start_failed",
      `The process sandbox could not start: ${reason}. ${hint}`,
      {
        cause,
        data: { command: command.command, args: command.args },
      },
    );
  } finally {
    clearTimeout(timer);
    child.kill();
  }
}

/** Finds Deno, bubblewrap and prlimit, and runs one program in the sandbox they make. */
export async function checkProcessTier(options: ProcessTierOptions = {}): Promise<ProcessTierSetup> {
  const deno = await resolveDeno(options.denoPath, options.resolvePackage);
  const prlimit = await resolvePrlimit(options.prlimitPath);
  const useBubblewrap = options.bubblewrap !== false;
  const bubblewrap = useBubblewrap ? await resolveBubblewrap(options, deno) : undefined;
  const setup: ProcessTierSetup = { deno, prlimit, bubblewrap };
  const files = writeRunnerFiles();
  try {
    await probe(
      sandboxCommand({ ...setup, script: files.script, denoDir: files.denoDir, memoryMb: CHECK_MEMORY_MB }),
      useBubblewrap,
    );
  } finally {
    removeRunnerFiles(files);
  }
  return setup;
}
