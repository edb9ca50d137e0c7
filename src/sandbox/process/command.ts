/**
 * The command line of one sandbox process: `prlimit` (memory cap) around
 * `bwrap` (namespaces, no capabilities, only the runtime's files) around Deno
 * (no permissions). Pure: it only builds arguments.
 */

/** Deno flags of every sandbox process: no permission, no prompt, no config, no remote or npm code. */
export const SAFE_DENO_FLAGS = ["--no-prompt", "--no-config", "--no-remote", "--no-npm", "--quiet"] as const;

/**
 * Address space (MiB) Deno reserves before running anything: V8's code
 * range and cages count against RLIMIT_DATA (measured: Deno 2.9 fails to
 * start below ~535 MiB). The cap is this plus room for the heap and buffers.
 */
export const DENO_RESERVED_DATA_MB = 640;

/** Where things are inside the bubblewrap sandbox. */
export const SANDBOX_DENO_PATH = "/toolscript/bin/deno";
export const SANDBOX_RUNNER_PATH = "/toolscript/runner.js";
const SANDBOX_DENO_DIR = "/tmp/deno";
/** The unprivileged `nobody` user and group the code runs as. */
const SANDBOX_ID = "65534";

/** Variables Deno itself reads; nothing of the gateway's environment. */
function denoEnvironment(denoDir: string): Record<string, string> {
  return { DENO_DIR: denoDir, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" };
}

export interface BubblewrapSetup {
  /** Path of the `bwrap` executable. */
  path: string;
  /** Files bound read-only at the same path inside: the shared libraries Deno loads (from `ldd`). */
  libraries: { path: string; source: string }[];
}

export interface SandboxCommandOptions {
  /** Host path of the Deno executable. */
  deno: string;
  /** Host path of the runner script. */
  script: string;
  /** Host path of `prlimit`. */
  prlimit: string;
  /** Undefined runs Deno without bubblewrap (only when configured so). */
  bubblewrap: BubblewrapSetup | undefined;
  /** DENO_DIR when running without bubblewrap (inside it, a tmpfs is used). */
  denoDir: string;
  /** V8 heap limit. */
  memoryMb: number;
  /** Deno flags before the script; tests pass extra ones to probe the outer layers. */
  denoFlags?: readonly string[];
  /** More host folders or files bound read-only inside (the Python tier's Pyodide folder). */
  readOnlyBinds?: readonly { source: string; path: string }[];
  /** Memory (MiB) the runtime needs before the code's own, added to the data limit (Pyodide's interpreter). */
  baseDataMb?: number;
  /** V8 heap limit when it is not `memoryMb` (Pyodide's JavaScript side needs a floor). */
  heapMb?: number;
  /** More V8 flags (the Python tier's wasm tiering), after the heap limit. */
  v8Flags?: readonly string[];
}

export interface SandboxCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The RLIMIT_DATA of a sandbox process, in bytes. */
export function dataLimitBytes(memoryMb: number, baseDataMb = 0): number {
  // Twice the heap limit: once for the V8 heap, once for ArrayBuffers and other memory outside it.
  return (DENO_RESERVED_DATA_MB + baseDataMb + 2 * memoryMb) * 1024 * 1024;
}

function bubblewrapArgs(setup: BubblewrapSetup, options: SandboxCommandOptions): string[] {
  const args = [
    "--unshare-all",
    "--unshare-user",
    "--uid",
    SANDBOX_ID,
    "--gid",
    SANDBOX_ID,
    "--cap-drop",
    "ALL",
    "--die-with-parent",
    "--new-session",
    "--hostname",
    "sandbox",
    "--clearenv",
  ];
  for (const [name, value] of Object.entries(denoEnvironment(SANDBOX_DENO_DIR))) {
    args.push("--setenv", name, value);
  }
  args.push("--ro-bind", options.deno, SANDBOX_DENO_PATH, "--ro-bind", options.script, SANDBOX_RUNNER_PATH);
  for (const library of setup.libraries) args.push("--ro-bind", library.source, library.path);
  for (const bind of options.readOnlyBinds ?? []) args.push("--ro-bind", bind.source, bind.path);
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--chdir", "/tmp");
  return args;
}

export function sandboxCommand(options: SandboxCommandOptions): SandboxCommand {
  const limits = [`--data=${dataLimitBytes(options.memoryMb, options.baseDataMb)}`, "--core=0", "--"];
  const denoArgs = [
    "run",
    ...(options.denoFlags ?? SAFE_DENO_FLAGS),
    [
      `--v8-flags=--max-old-space-size=${Math.max(1, Math.floor(options.heapMb ?? options.memoryMb))}`,
      ...(options.v8Flags ?? []),
    ].join(","),
  ];
  const setup = options.bubblewrap;
  if (setup === undefined) {
    return {
      command: options.prlimit,
      args: [...limits, options.deno, ...denoArgs, options.script],
      env: denoEnvironment(options.denoDir),
    };
  }
  return {
    command: options.prlimit,
    args: [
      ...limits,
      setup.path,
      ...bubblewrapArgs(setup, options),
      SANDBOX_DENO_PATH,
      ...denoArgs,
      SANDBOX_RUNNER_PATH,
    ],
    env: {},
  };
}
