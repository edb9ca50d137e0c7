import type { ServerResponse } from "node:http";
import { messageOf } from "../../errors/message-of.ts";
import type { Gateway } from "../../gateway/gateway.ts";

export const HEALTH_PATH = "/health";
export const READY_PATH = "/ready";
export const METRICS_PATH = "/metrics";
/** Characters of a server's error quoted by /ready. */
const MAX_WHY_CHARS = 300;

/**
 * `/health`: the process answers (liveness). `/ready`: it can serve programs
 * (readiness): the store is open and every enabled upstream is ready; else 503
 * naming what is not and why. Both without a token, as probes are called;
 * they say nothing a token guards (server names, states, redacted errors).
 */
export function isProbePath(path: string): boolean {
  return path === HEALTH_PATH || path === READY_PATH;
}

/** Answers `/health` or `/ready` (see isProbePath). */
export async function answerProbe(gateway: Gateway, path: string, response: ServerResponse): Promise<void> {
  if (path === HEALTH_PATH) {
    sendJson(response, 200, { status: "ok" });
    return;
  }
  const problems: Array<{ what: string; state: string; why?: string }> = [];
  const store = gateway.store;
  if (store === undefined) problems.push({ what: "store", state: "closed" });
  else {
    // A shared store that does not answer makes every replica on it unready: executions would fail.
    try {
      await store.ping();
    } catch (error) {
      problems.push({
        what: `store ${store.location}`,
        state: "unreachable",
        why: messageOf(error).slice(0, MAX_WHY_CHARS),
      });
    }
  }
  for (const status of gateway.statuses()) {
    if (status.state === "ready" || status.state === "disabled") continue;
    problems.push({
      what: `server ${status.server}`,
      state: status.state,
      ...(status.error !== undefined && { why: status.error.slice(0, MAX_WHY_CHARS) }),
    });
  }
  sendJson(response, problems.length === 0 ? 200 : 503, {
    status: problems.length === 0 ? "ready" : "not_ready",
    ...(problems.length > 0 && { problems }),
  });
}

/** `/metrics`: the Prometheus text exposition of the gateway's metrics. */
export async function answerMetrics(gateway: Gateway, response: ServerResponse): Promise<void> {
  const text = await gateway.metrics.text();
  response.writeHead(200, {
    "content-type": gateway.metrics.contentType,
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  response.end(text);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  response.end(text);
}
