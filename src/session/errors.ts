/**
 * - `workspace.bad_path`: the path is not a valid workspace path (absolute, `..`, NUL, backslash, too long, ...),
 *   or it collides with a folder/file of the same name.
 * - `workspace.not_found`: no such file in this session's workspace.
 * - `workspace.quota`: the write would pass the file size, file count or total bytes quota.
 * - `workspace.not_text`: the file is not valid UTF-8; read it with `"bytes"`.
 * `data.path` names the path as the caller gave it.
 */
export type WorkspaceErrorCode =
  | "workspace.bad_path"
  | "workspace.not_found"
  | "workspace.quota"
  | "workspace.not_text";

export class WorkspaceError extends Error {
  override readonly name = "WorkspaceError";
  readonly code: WorkspaceErrorCode;
  readonly data: { path: string; [key: string]: unknown };

  constructor(
    code: WorkspaceErrorCode,
    message: string,
    data: { path: string; [key: string]: unknown },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
    this.data = data;
  }
}

/** - `session.bad_id`: not a usable session id (empty, too long, control characters). */
export type SessionErrorCode = "session.bad_id";

export class SessionError extends Error {
  override readonly name = "SessionError";
  readonly code: SessionErrorCode;
  readonly data: Record<string, unknown>;

  constructor(code: SessionErrorCode, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.data = data;
  }
}
