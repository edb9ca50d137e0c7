import type { ProgressToken, ServerContext } from "@modelcontextprotocol/server";
import type { CallProgress, CallProgressListener } from "../bridge/progress.ts";
import type { ClientConnection } from "./client-connection.ts";

/**
 * At most one progress notification per this many milliseconds per execution:
 * a server reporting every millisecond must not flood the client. What comes
 * in between is coalesced; the latest wins and goes out when the interval ends.
 */
export const PROGRESS_INTERVAL_MS = 200;
/**
 * A program quiet for this long (no call finished, no server progress) still
 * says it runs, with its elapsed time and calls made: a client can tell a long
 * execution from a hung one.
 */
export const HEARTBEAT_MS = 1000;

export interface ExecutionProgress {
  /** For ExecuteRequest.onProgress. */
  readonly listener: CallProgressListener;
  /** The request is answered: nothing more is sent (a pending notification is dropped). */
  stop(): void;
}

/**
 * The progress of one `execute_code` call, when its client sent a progress
 * token (undefined otherwise): the servers' progress of each call the program
 * makes ("everything.trigger_long_running_operation: 3/10 copying"), each
 * finished call ("everything.get_sum done (4 calls)"), and, when nothing else
 * was said for a while, the elapsed time ("running 3.0 s, 4 tool calls made").
 *
 * The spec wants `progress` to increase with every notification of a request,
 * but calls run concurrently and each server counts on its own scale, so their
 * numbers cannot be passed on as they are. The value sent is a counter of the
 * events seen so far (server notifications and finished calls), with no
 * `total` (the number of calls a program will make is unknown): it strictly
 * increases, coalescing only skips values, and the server's own numbers stay
 * readable in the message.
 */
export function executionProgress(
  connection: ClientConnection,
  ctx: ServerContext,
  intervalMs = PROGRESS_INTERVAL_MS,
  heartbeatMs = HEARTBEAT_MS,
): ExecutionProgress | undefined {
  const token = (ctx.mcpReq._meta as { progressToken?: ProgressToken } | undefined)?.progressToken;
  if (token === undefined) return undefined;
  const started = Date.now();
  let events = 0;
  let calls = 0;
  let lastSent = Number.NEGATIVE_INFINITY;
  let lastSaid = started;
  let pending: { progress: number; message: string } | undefined;
  // Cleared by stop(), which the execute_code handler always calls.
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const flush = () => {
    timer = undefined;
    if (stopped || pending === undefined) return;
    const { progress, message } = pending;
    pending = undefined;
    lastSent = Date.now();
    // A client gone or a request answered meanwhile is no failure of the program.
    connection.progress(token, progress, undefined, message).catch(() => {});
  };

  const say = (message: string) => {
    if (stopped) return;
    lastSaid = Date.now();
    pending = { progress: ++events, message };
    if (timer !== undefined) return;
    const wait = lastSent + intervalMs - Date.now();
    if (wait <= 0) flush();
    else timer = setTimeout(flush, wait);
  };
  const heartbeat = setInterval(() => {
    // A little slack: the interval's ticks drift by a few milliseconds.
    if (Date.now() - lastSaid < heartbeatMs - 10) return;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    say(`running ${seconds} s, ${calls} tool call${calls === 1 ? "" : "s"} made`);
  }, heartbeatMs);
  heartbeat.unref();

  return {
    listener(event) {
      if (event.kind === "done") calls = event.calls;
      say(describe(event));
    },
    stop() {
      stopped = true;
      clearInterval(heartbeat);
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** One line a person can read: which call, and what it said or that it finished. */
export function describe(event: CallProgress): string {
  const { tool } = event;
  // A tool by the name the program calls it; a resources/prompts request by server and method.
  const label = tool.path.startsWith("tools.")
    ? tool.path.slice("tools.".length)
    : `${tool.serverId} ${tool.tool}`;
  if (event.kind === "done") {
    const calls = `${event.calls} call${event.calls === 1 ? "" : "s"}`;
    return `${label} ${event.ok ? "done" : "failed"} (${calls})`;
  }
  const { progress, total, message } = event.progress;
  const amount = total === undefined ? `${progress}` : `${progress}/${total}`;
  return message === undefined || message === "" ? `${label}: ${amount}` : `${label}: ${amount} ${message}`;
}
