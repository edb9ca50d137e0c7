/** Kinds of failure an execution reports to the agent (DESIGN.md: execute_code isError kinds). */
export type ExecutionErrorKind = "syntax" | "type" | "timeout" | "memory" | "tool" | "policy" | "runtime";

export interface ExecutionError {
  kind: ExecutionErrorKind;
  /** Error class name as the agent's code saw it (`TypeError`, `ToolError`, ...). */
  name: string;
  message: string;
  /** Stack in the agent's own line numbers (never host frames). */
  stack?: string;
  /** 1-based position in the agent's source, when known. */
  line?: number;
  column?: number;
  /** The error's own `code`, e.g. a host error's code (`ToolError`, `PolicyError`, ...). */
  code?: string;
  /** Extra data, e.g. the tool error's content or the validation issues. */
  data?: unknown;
}

export type LogLevel = "log" | "info" | "warn" | "error" | "debug";

export interface LogEntry {
  level: LogLevel;
  message: string;
}

/** What the sandbox boundary returns. It never throws into the host. */
export interface ExecutionResult {
  result?: unknown;
  error?: ExecutionError;
  logs: LogEntry[];
  /** Bytes of tool and search results (as JSON) that entered the sandbox. */
  toolResultBytes?: number;
  /** True when logs were cut at the size cap. */
  logsTruncated?: boolean;
  durationMs: number;
}

/**
 * An error raised by a host function, carried across the boundary as data.
 * Inside the sandbox it becomes an instance of the class named by `name`
 * (`ToolError`, `PolicyError`, `ValidationError`, ...), with `code` and `data`.
 */
export interface HostErrorData {
  name: string;
  message: string;
  code?: string;
  data?: unknown;
}

/** The functions the host offers to sandboxed code. Values crossing are JSON. */
export interface HostBridge {
  /** Calls one tool; `server`/`tool` are the original names. Rejects with a HostError. */
  callTool(server: string, tool: string, args: unknown, signal: AbortSignal): Promise<unknown>;
  /** Optional: `searchTools(query, limit, minScore)` inside the sandbox. */
  searchTools?(query: string, limit: number | undefined, minScore: number | undefined): Promise<unknown>;
  /** Optional: the session's files behind the `workspace` global; without it every call throws a WorkspaceError. */
  workspace?: SandboxWorkspace;
  /** Optional: a saved skill's compiled module, for `import ... from "skills/<name>"`. Rejects with a HostError. */
  loadSkill?(name: string): Promise<SandboxSkillModule>;
  /** Optional: the upstream servers' resources behind the `resources` global. Rejects with a HostError. */
  resources?: SandboxResources;
  /** Optional: the upstream servers' prompts behind the `prompts` global. Rejects with a HostError. */
  prompts?: SandboxPrompts;
}

/** One entry of a resource's contents as it crosses into the sandbox: text, or bytes as base64 `blob`. */
export interface SandboxResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** `resources.read/list/templates` of the sandbox; values are JSON. */
export interface SandboxResources {
  /** The resource's contents; `server` forces which server is asked. */
  read(
    uri: string,
    options: { server?: string | undefined },
    signal: AbortSignal,
  ): Promise<{ server: string; contents: SandboxResourceContent[] }>;
  /** Every resource of `server` (of every server offering resources without it), each with its `server`. */
  list(server: string | undefined, signal: AbortSignal): Promise<unknown[]>;
  /** Every resource template of `server` (of every server without it), each with its `server`. */
  templates(server: string | undefined, signal: AbortSignal): Promise<unknown[]>;
}

/** `prompts.get/list` of the sandbox; values are JSON. */
export interface SandboxPrompts {
  get(server: string, name: string, args: Record<string, string>, signal: AbortSignal): Promise<unknown>;
  list(server: string | undefined, signal: AbortSignal): Promise<unknown[]>;
}

/** A workspace file as code sees it in `workspace.list()` and `writeFile()`'s answer. */
export interface SandboxFileInfo {
  path: string;
  size: number;
  /** Last write, ms since the epoch. */
  mtime: number;
}

/**
 * The files of the execution's session. Methods may answer synchronously;
 * failures throw errors named `WorkspaceError` with a `code` and `data`.
 */
export interface SandboxWorkspace {
  readFile(path: string, encoding: "utf8" | "bytes"): string | Uint8Array | Promise<string | Uint8Array>;
  writeFile(path: string, data: string | Uint8Array): SandboxFileInfo | Promise<SandboxFileInfo>;
  list(prefix: string | undefined): SandboxFileInfo[] | Promise<SandboxFileInfo[]>;
  remove(path: string): void | Promise<void>;
}

/** A skill compiled for the sandbox: a CommonJS-style body run with `exports`, `require` and `module`. */
export interface SandboxSkillModule {
  name: string;
  version: number;
  js: string;
  /** Names of the skills it imports (`require("skills/<name>")`), loaded before it runs. */
  imports: string[];
  /** Exported names that are types only: importing them is fine, they are just absent at run time. */
  typeExports?: string[];
}

/** Which tools code may call: server identifier -> tool identifier -> original names. */
export type ToolNamespace = Record<string, { server: string; tools: Record<string, string> }>;

/** A source map (v3) from `RunOptions.code` back to the agent's own source, as made by the compile step. */
export interface ProgramSourceMap {
  version: 3;
  /** `sources[0]` names the agent's program in mapped stacks (e.g. `agent.ts`). */
  sources: string[];
  names: string[];
  mappings: string;
}

export interface RunOptions {
  /** JavaScript (already compiled from TS), an async function body: top-level await and `return` allowed. */
  code: string;
  /** Maps positions in `code` back to the agent's lines; without it, lines of `code` are reported. */
  sourceMap?: ProgramSourceMap;
  tools: ToolNamespace;
  bridge: HostBridge;
  timeoutMs: number;
  memoryMb: number;
  /** Bytes of tool and search results (JSON) that may enter the sandbox; past it calls throw LimitError. */
  maxResultBytes?: number | undefined;
  /** Cap on the total size of captured logs, in bytes. */
  maxLogBytes: number;
  /** Bytes of JSON the returned value may have; a larger one is measured inside the sandbox and becomes a LimitError. */
  maxOutputBytes?: number | undefined;
  /** JSON value visible as the global `context`. */
  context?: unknown;
  /** Aborted when the caller gives up (e.g. the MCP request was cancelled). */
  signal?: AbortSignal;
}

/** A sandbox tier. One implementation per runtime (isolate, process, ...). */
export interface SandboxRuntime {
  readonly name: string;
  run(options: RunOptions): Promise<ExecutionResult>;
  close(): Promise<void>;
  /** Sandboxes prepared ahead and waiting (warm) and serving a program now (running): for metrics. */
  poolStats?(): SandboxPoolStats;
}

export interface SandboxPoolStats {
  warm: number;
  running: number;
}
