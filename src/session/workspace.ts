import type { SessionStore } from "../store/domains.ts";
import type { WorkspaceFileInfo, WriteFileRefusal } from "../store/types.ts";
import { WorkspaceError } from "./errors.ts";
import { formatBytes, type WorkspaceQuotas } from "./quotas.ts";
import { normalizeWorkspacePath, normalizeWorkspacePrefix } from "./workspace-path.ts";

export type WorkspaceEncoding = "utf8" | "bytes";

const encoder = new TextEncoder();
// fatal: a binary file read as text is an error, not silently mangled with U+FFFD.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * One session's files. Every call is scoped to the session id it was made for;
 * paths are checked and normalised here, quotas are checked by the store inside
 * the write's transaction. Every call reaches the store (files are not cached),
 * so what another replica wrote is read at once.
 */
export class Workspace {
  readonly session: string;
  readonly #store: SessionStore;
  readonly #quotas: WorkspaceQuotas;

  constructor(store: SessionStore, session: string, quotas: WorkspaceQuotas) {
    this.#store = store;
    this.session = session;
    this.#quotas = quotas;
  }

  readFile(path: string, encoding?: "utf8"): Promise<string>;
  readFile(path: string, encoding: "bytes"): Promise<Uint8Array>;
  readFile(path: string, encoding?: WorkspaceEncoding): Promise<string | Uint8Array>;
  async readFile(path: string, encoding: WorkspaceEncoding = "utf8"): Promise<string | Uint8Array> {
    const normal = normalizeWorkspacePath(path);
    const file = await this.#store.readFile(this.session, normal);
    if (!file) {
      throw new WorkspaceError("workspace.not_found", `no file "${normal}" in the workspace`, { path });
    }
    if (encoding === "bytes") return file.bytes;
    try {
      return decoder.decode(file.bytes);
    } catch (error) {
      throw new WorkspaceError(
        "workspace.not_text",
        `"${normal}" is not UTF-8 text; read it with readFile(path, "bytes")`,
        { path },
        { cause: error },
      );
    }
  }

  /** Creates or replaces a file; a string is stored as UTF-8. Returns the stored file's info. */
  async writeFile(path: string, data: string | Uint8Array): Promise<WorkspaceFileInfo> {
    const normal = normalizeWorkspacePath(path);
    if (typeof data !== "string" && !(data instanceof Uint8Array)) {
      throw new TypeError(`writeFile("${normal}"): data must be a string or a Uint8Array`);
    }
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    const { maxFileBytes, maxTotalBytes, maxFiles } = this.#quotas;
    if (bytes.byteLength > maxFileBytes) {
      throw new WorkspaceError(
        "workspace.quota",
        `cannot write "${normal}": ${formatBytes(bytes.byteLength)} is over the ${formatBytes(maxFileBytes)} per-file quota`,
        { path, quota: "file_bytes", size: bytes.byteLength, limit: maxFileBytes },
      );
    }
    const outcome = await this.#store.writeFile(this.session, normal, bytes, { maxTotalBytes, maxFiles });
    if (outcome.ok) return outcome.info;
    throw refusalError(path, normal, outcome);
  }

  /** Files at or under the folder `prefix` (every file when absent), sorted by path. */
  async list(prefix?: string): Promise<WorkspaceFileInfo[]> {
    return this.#store.listFiles(this.session, normalizeWorkspacePrefix(prefix));
  }

  /** Deletes a file; `workspace.not_found` when there is none. */
  async remove(path: string): Promise<void> {
    const normal = normalizeWorkspacePath(path);
    if (!(await this.#store.removeFile(this.session, normal))) {
      throw new WorkspaceError("workspace.not_found", `no file "${normal}" in the workspace`, { path });
    }
  }

  /** Current usage against the quotas. */
  async usage(): Promise<{ files: number; bytes: number; quotas: WorkspaceQuotas }> {
    const session = await this.#store.get(this.session);
    return { files: session?.fileCount ?? 0, bytes: session?.totalBytes ?? 0, quotas: { ...this.#quotas } };
  }
}

function refusalError(path: string, normal: string, refusal: WriteFileRefusal): WorkspaceError {
  switch (refusal.reason) {
    case "total_bytes":
      return new WorkspaceError(
        "workspace.quota",
        `cannot write "${normal}": the workspace would hold ${formatBytes(refusal.used + refusal.needed)}, over its ${formatBytes(refusal.limit)} quota (${formatBytes(refusal.used)} used)`,
        { path, quota: "total_bytes", used: refusal.used, limit: refusal.limit },
      );
    case "file_count":
      return new WorkspaceError(
        "workspace.quota",
        `cannot write "${normal}": the workspace already holds ${refusal.used} files, its quota is ${refusal.limit}`,
        { path, quota: "file_count", used: refusal.used, limit: refusal.limit },
      );
    case "is_directory":
      return new WorkspaceError(
        "workspace.bad_path",
        `cannot write "${normal}": it is a folder (it holds "${refusal.conflict}")`,
        { path, conflict: refusal.conflict },
      );
    case "parent_is_file":
      return new WorkspaceError(
        "workspace.bad_path",
        `cannot write "${normal}": "${refusal.conflict}" is a file, not a folder`,
        { path, conflict: refusal.conflict },
      );
  }
}
