import { WorkspaceError } from "./errors.ts";

/** UTF-8 bytes of a whole path, and of one segment (the usual file-name limit). */
export const MAX_PATH_BYTES = 1024;
export const MAX_SEGMENT_BYTES = 255;
export const MAX_PATH_DEPTH = 32;

// Control characters (NUL, C0, DEL, C1): never part of a sane name, and NUL truncates paths in C APIs.
const CONTROL = /\p{Cc}/u;
const DRIVE = /^[A-Za-z]:/;

function refuse(path: string, why: string): never {
  const shown = JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}...` : path);
  throw new WorkspaceError("workspace.bad_path", `invalid workspace path ${shown}: ${why}`, { path });
}

/**
 * The canonical form of a file path in a workspace: relative, `/`-separated,
 * NFC, `.` segments dropped. Refuses, naming the path, whatever could mean
 * something else elsewhere: `..`, absolute or drive paths, backslashes, NUL and
 * control characters, empty segments (`a//b`, trailing `/`), over-long paths.
 */
export function normalizeWorkspacePath(path: unknown): string {
  if (typeof path !== "string") refuse(String(path), "a path must be a string");
  if (path.length === 0) refuse(path, "the path is empty");
  if (CONTROL.test(path)) refuse(path, "control characters (NUL included) are not allowed");
  if (path.includes("\\")) refuse(path, 'use "/" as the separator; "\\" is not allowed');
  if (path.startsWith("/"))
    refuse(path, "absolute paths are not allowed; paths are relative to the workspace");
  if (DRIVE.test(path)) refuse(path, "drive-letter paths are not allowed");
  const segments = path.normalize("NFC").split("/");
  const kept: string[] = [];
  for (const segment of segments) {
    if (segment === "..") refuse(path, '".." segments are not allowed');
    if (segment === "") refuse(path, 'empty segments ("//" or a trailing "/") are not allowed');
    if (segment === ".") continue;
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) {
      refuse(path, `a segment is longer than ${MAX_SEGMENT_BYTES} bytes`);
    }
    kept.push(segment);
  }
  if (kept.length === 0) refuse(path, "the path names the workspace itself, not a file");
  if (kept.length > MAX_PATH_DEPTH) refuse(path, `more than ${MAX_PATH_DEPTH} nested folders`);
  const normal = kept.join("/");
  if (Buffer.byteLength(normal) > MAX_PATH_BYTES) refuse(path, `longer than ${MAX_PATH_BYTES} bytes`);
  return normal;
}

/** A folder to list: like a file path, but a trailing `/` is allowed, and `""` and `"."` mean the root. */
export function normalizeWorkspacePrefix(prefix: unknown): string {
  if (prefix === undefined || prefix === "" || prefix === "." || prefix === "./") return "";
  if (typeof prefix === "string" && prefix.length > 1 && prefix.endsWith("/")) {
    return normalizeWorkspacePath(prefix.slice(0, -1));
  }
  return normalizeWorkspacePath(prefix);
}
