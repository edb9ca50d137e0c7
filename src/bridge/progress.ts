import type { CatalogTool } from "../catalog/types.ts";
import type { UpstreamProgress } from "../upstream/types.ts";

/**
 * What an execution's calls report while the program runs, for the progress
 * of the `execute_code` call that runs it (server/execution-progress.ts):
 * - `upstream`: a server's own `notifications/progress` for one call, as it sent it;
 * - `done`: a call (tool, resource or prompt request) finished, well or not;
 *   `calls` counts the execution's calls so far.
 */
export type CallProgress =
  | { kind: "upstream"; tool: CatalogTool; progress: UpstreamProgress }
  | { kind: "done"; tool: CatalogTool; ok: boolean; calls: number };

/** Told of each CallProgress; must not throw (a call never fails because of its progress). */
export type CallProgressListener = (event: CallProgress) => void;
