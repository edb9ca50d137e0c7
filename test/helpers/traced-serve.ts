import { type ServedProcess, serveHttpProcess } from "./serve-http-process.ts";

export { stop, until } from "./serve-http-process.ts";

export interface TracedServeOptions {
  /** The upstream servers (`mcpServers`); serving waits until each is ready. */
  mcpServers: Record<string, { command: string; args: string[] }>;
  /** More `toolscript` settings (e.g. passThrough). */
  toolscript?: Record<string, unknown>;
  /** The OTEL_* variables (and any other) of the gateway's process, over a 50 ms batch delay. */
  env: Record<string, string>;
}

export type TracedGateway = ServedProcess;

/** `toolscript serve --http` with the test's OTEL_* variables only; resolves once it serves. */
export function serveTraced(dir: string, options: TracedServeOptions): Promise<ServedProcess> {
  return serveHttpProcess(dir, { ...options, env: { OTEL_BSP_SCHEDULE_DELAY: "50", ...options.env } });
}
