/**
 * The records ToolScript persists (DESIGN.md §2): what the `SharedStore`
 * domains (domains.ts) take and return, the same for every engine.
 */

export interface SessionRecord {
  id: string;
  createdAt: number;
  lastSeenAt: number;
  /** Idle time after which the session and all its data expire; `null`: the manager's default. */
  idleTtlMs: number | null;
  /** Workspace usage, kept in step with the files by the writer. */
  fileCount: number;
  totalBytes: number;
  /** The client that created it (an HTTP client's name); `null`: the local client (stdio, CLI). */
  owner: string | null;
}

export interface WorkspaceFileInfo {
  path: string;
  size: number;
  mtime: number;
}

export interface WorkspaceFileRecord extends WorkspaceFileInfo {
  bytes: Uint8Array;
}

export interface WorkspaceLimits {
  /** Sum of file sizes in one session. */
  maxTotalBytes: number;
  maxFiles: number;
}

/** Why a write was refused; the caller turns it into its own error. */
export type WriteFileRefusal =
  | { reason: "total_bytes"; used: number; limit: number; needed: number }
  | { reason: "file_count"; used: number; limit: number }
  /** `conflict` is the existing path in the way: a file where a folder is needed, or the reverse. */
  | { reason: "is_directory"; conflict: string }
  | { reason: "parent_is_file"; conflict: string };

export type WriteFileOutcome = { ok: true; info: WorkspaceFileInfo } | ({ ok: false } & WriteFileRefusal);

export type SkillVisibility = "private" | "shared";

/** What a skill is written in; a program imports only skills of its own language. */
export type SkillLanguage = "typescript" | "python";

/** Where a skill came from when no person wrote it: a model, for `solve_task`. */
export interface SkillOrigin {
  kind: "generated";
  /** The task description it was generated for (also its description, indexed for search). */
  task: string;
  expectedOutcome?: string | undefined;
  /** The argument names of the task it was made and tested for, sorted. */
  argNames: string[];
  provider: string;
  model: string;
  /** Whether the first answer failed and a repair round was needed. */
  repaired: boolean;
  /** After this (epoch ms) it is not reused for new tasks. */
  expiresAt: number;
}

export interface SaveSkillInput {
  name: string;
  code: string;
  description: string;
  /** The declaration derived from `code` by the caller (`.d.ts` text, or Python signatures). */
  declaration: string;
  /** Default `typescript`. */
  language?: SkillLanguage | undefined;
  /** Author session; required for private skills. */
  session?: string | null | undefined;
  visibility?: SkillVisibility | undefined;
  origin?: SkillOrigin | undefined;
}

export interface SkillVersion {
  name: string;
  version: number;
  code: string;
  description: string;
  declaration: string;
  language: SkillLanguage;
  authorSession: string | null;
  visibility: SkillVisibility;
  /** Session that owns a private skill; `null` for shared ones. */
  ownerSession: string | null;
  createdAt: number;
  /** Set for generated skills; `null` for written ones. */
  origin: SkillOrigin | null;
}

/**
 * Who is looking. A session sees shared skills and its own private ones;
 * no session sees shared ones only; `includePrivate` (the operator's CLI) sees all.
 */
export interface SkillViewer {
  session?: string | null | undefined;
  includePrivate?: boolean | undefined;
}

export interface AuditEntry {
  /**
   * A tool call from code (default), a whole execution (server "", tool = the sandbox
   * tier), a request to a model (server = provider, tool = model; detail: tokens), or an
   * anomaly alert (server "", tool = its kind, outcome = the response; detail: observed,
   * baseline, threshold, why).
   */
  kind?: "tool_call" | "execution" | "model_call" | "anomaly";
  time: number;
  session: string | null;
  /** The client that ran it (an HTTP client's name); `null` or absent: the local client. */
  client?: string | null;
  server: string;
  tool: string;
  /** SHA-256 (hex) of the arguments as JSON: enough to correlate, never the arguments themselves. */
  argsDigest: string;
  argsBytes: number;
  /** `ok`, or the error class/code (`ToolError`, `policy.denied`, ...). */
  outcome: string;
  durationMs: number;
  /** Bytes of the result handed back (tool calls) or returned to the model (executions). */
  bytesOut?: number | null;
  /** The policy's decision for a tool call: allow, approve or deny. */
  policy?: string | null;
  /** Anything else worth keeping: code hash, error kind, limits hit. */
  detail?: Record<string, unknown> | null;
  /**
   * The replica (gateway process) that wrote it: `TOOLSCRIPT_REPLICA`, else
   * `<hostname>:<pid>` (replica-id.ts); `null` or absent: not known (records from before replicas).
   */
  replica?: string | null;
}

/** What is known of a call once it ends: written over its "started" record. */
export type AuditUpdate = Pick<AuditEntry, "outcome" | "durationMs" | "bytesOut" | "policy" | "detail">;

export interface AuditRecord extends AuditEntry {
  id: number;
}

export interface AuditQuery {
  session?: string | undefined;
  client?: string | undefined;
  since?: number | undefined;
  /** Only refusals: policy denials and declined approvals. */
  denied?: boolean | undefined;
  /** Only records of this kind (tool calls: also those written before kinds existed). */
  kind?: NonNullable<AuditEntry["kind"]> | undefined;
  /** Only records written by this replica. */
  replica?: string | undefined;
  /** Newest first; default 100. */
  limit?: number | undefined;
}

/**
 * One process's append-only file of tool calls about to be sent, in the store's
 * directory: the cheap way to have a call's record on disk before the call goes
 * out. The audit log copies what it holds into the store with its next batch;
 * the journal of a process that died is copied (as "started" records) when the
 * store is next opened.
 */
export interface AuditJournal {
  /**
   * Appends `entry` (the record as it reads while the call runs: outcome
   * "started") with one write. Throws when the line could not be written whole.
   */
  append(entry: AuditEntry): void;
  /**
   * Inside the `batch` that wrote every entry appended so far into the audit
   * log: records so, committed with those rows (never copied again).
   */
  markFlushed(): void;
  /** After that batch committed: empties the file. */
  truncate(): void;
  /** Removes the file when everything appended is flushed, else leaves it to be recovered. Idempotent. */
  close(): void;
}

/** A stored credential without its contents. */
export interface CredentialInfo {
  server: string;
  updatedAt: number;
}
