/**
 * The globals code sees in the sandbox, as an ambient declaration file, so a
 * skill is type-checked against what it will really have: no DOM, no Node,
 * no timers. `tools` comes from the catalog (catalog/declaration/tree.ts).
 */
export const SANDBOX_GLOBALS_DECLARATION = `interface ToolscriptConsole {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  debug(...data: unknown[]): void;
}
declare const console: ToolscriptConsole;
/** The JSON value passed as execute_code's \`context\`. */
declare const context: unknown;
interface ToolSearchResult { server: string; tool: string; path: string; description: string; score: number }
declare function searchTools(query: string, limit?: number, minScore?: number): Promise<ToolSearchResult[]>;
interface WorkspaceFile { path: string; size: number; mtime: number }
/** The session's files, kept across executions. */
declare const workspace: {
  readFile(path: string, encoding?: "utf8"): Promise<string>;
  readFile(path: string, encoding: "bytes"): Promise<Uint8Array>;
  writeFile(path: string, data: string | Uint8Array | ArrayBuffer): Promise<WorkspaceFile>;
  list(prefix?: string): Promise<WorkspaceFile[]>;
  remove(path: string): Promise<void>;
};
interface ToolscriptErrorOptions { code?: string; data?: unknown; cause?: unknown }
declare class ToolError extends Error { constructor(message?: string, options?: ToolscriptErrorOptions); code?: string; data?: unknown }
declare class PolicyError extends Error { constructor(message?: string, options?: ToolscriptErrorOptions); code?: string; data?: unknown }
declare class ValidationError extends Error { constructor(message?: string, options?: ToolscriptErrorOptions); code?: string; data?: unknown }
declare class WorkspaceError extends Error { constructor(message?: string, options?: ToolscriptErrorOptions); code?: string; data?: unknown }
`;
