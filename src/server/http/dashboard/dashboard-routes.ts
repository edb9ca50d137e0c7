import type { IncomingMessage, ServerResponse } from "node:http";
import type { Gateway } from "../../../gateway/gateway.ts";
import type { ActivityEvent } from "../../../ops/activity.ts";
import type { AuditRecord } from "../../../store/types.ts";
import type { UpstreamStatus } from "../../../upstream/types.ts";
import type { ClientTokens } from "../auth.ts";
import { DashboardState, MAX_ALERTS, MAX_RECENT } from "./dashboard-state.ts";
import { EventStreams } from "./event-streams.ts";
import { answerLogin, DASHBOARD_PATH, DashboardLogins } from "./login.ts";
import { sendLoginPage } from "./login-page.ts";
import { pageAssets } from "./page-assets.ts";
import { PAGE_HEADERS } from "./page-headers.ts";

export { DASHBOARD_PATH } from "./login.ts";
export const DASHBOARD_EVENTS_PATH = `${DASHBOARD_PATH}/events`;
/** Changes go out at most this often: a burst of thousands of calls is a few messages a second. */
export const FLUSH_MS = 250;
/** Upstream states are looked at this often, and sent when they changed. */
export const UPSTREAMS_MS = 2000;
/** Characters of an upstream's error shown. */
const MAX_ERROR_CHARS = 300;

/** The upstream table's row: no stderr, no login URL, a shortened error. */
export interface UpstreamView {
  server: string;
  state: string;
  transport: string | null;
  toolCount: number;
  restarts: number;
  error?: string;
}

export interface Dashboard {
  /** Answers a request under /dashboard (the caller checked the Host and Origin). */
  handle(request: IncomingMessage, response: ServerResponse, url: URL): void;
  /** Ends the live streams and stops listening to the gateway. */
  close(): void;
}

export interface DashboardOptions {
  /** The HTTP server's tokens; none (or empty): no login (anonymous loopback, the admin port). */
  tokens?: ClientTokens | undefined;
}

export function isDashboardPath(path: string): boolean {
  return path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);
}

/**
 * `GET /dashboard` (the page; `?token=` logs in), `GET /dashboard/events`
 * (server-sent events: a `snapshot`, then `activity` changes at most every
 * FLUSH_MS, `upstreams` when their states change) and the page's script and
 * style. Aggregates from the moment it is made: make it when the server starts.
 */
export function createDashboard(gateway: Gateway, options: DashboardOptions = {}): Dashboard {
  const logins = new DashboardLogins(options.tokens);
  const state = new DashboardState();
  // Live events wait for the history (an asynchronous read of the store), so the lists stay in order.
  let waiting: ActivityEvent[] | undefined = [];
  const stopFeed = gateway.activity.on((event) => (waiting ? waiting.push(event) : state.observe(event)));
  void auditHistory(gateway).then((history) => {
    state.seedHistory(history);
    for (const event of waiting ?? []) state.observe(event);
    waiting = undefined;
  });
  let sentVersion = state.version;
  let sentUpstreams = "";
  let ticks = 0;
  let timer: NodeJS.Timeout | undefined;

  const tick = () => {
    if (state.version !== sentVersion) {
      streams.broadcast("activity", state.changesSince(sentVersion));
      sentVersion = state.version;
    }
    ticks += 1;
    if (ticks % Math.round(UPSTREAMS_MS / FLUSH_MS) !== 0) return;
    const upstreams = upstreamViews(gateway);
    const text = JSON.stringify(upstreams);
    if (text !== sentUpstreams) streams.broadcast("upstreams", upstreams);
    sentUpstreams = text;
  };
  const streams = new EventStreams({
    onActive(active) {
      clearInterval(timer);
      timer = undefined;
      if (!active) return;
      sentVersion = state.version;
      sentUpstreams = "";
      timer = setInterval(tick, FLUSH_MS);
      timer.unref();
    },
  });

  const openStream = (response: ServerResponse) => {
    if (!streams.open(response)) {
      response.writeHead(503, { ...PAGE_HEADERS, "content-type": "text/plain", "retry-after": "10" });
      response.end(`too many dashboards open at once; close one or try again later\n`);
      return;
    }
    streams.send(response, "snapshot", { ...state.snapshot(), upstreams: upstreamViews(gateway) });
  };

  return {
    handle(request, response, url) {
      const path = url.pathname === `${DASHBOARD_PATH}/` ? DASHBOARD_PATH : url.pathname;
      if (request.method !== "GET") {
        response.writeHead(405, { ...PAGE_HEADERS, allow: "GET", "content-type": "text/plain" });
        response.end(`${path} answers GET only\n`);
        return;
      }
      const asset = path.slice(DASHBOARD_PATH.length + 1);
      if (asset === "app.js" || asset === "app.css") return sendAsset(response, asset);
      if (path === DASHBOARD_PATH && url.searchParams.has("token"))
        return answerLogin(logins, request, response, url.searchParams.get("token") ?? "");
      if (path !== DASHBOARD_PATH && path !== DASHBOARD_EVENTS_PATH) {
        response.writeHead(404, { ...PAGE_HEADERS, "content-type": "text/plain" });
        response.end(`not found; the dashboard is at ${DASHBOARD_PATH}\n`);
        return;
      }
      const access = logins.authorize(request);
      if (path === DASHBOARD_PATH)
        return access.ok ? sendAsset(response, "page.html") : sendLoginPage(response, access.why);
      if (!access.ok) {
        response.writeHead(401, { ...PAGE_HEADERS, "content-type": "text/plain" });
        response.end(`${access.why}\n`);
        return;
      }
      openStream(response);
    },
    close() {
      stopFeed();
      streams.close();
      clearInterval(timer);
    },
  };
}

function sendAsset(response: ServerResponse, name: string): void {
  let asset: { contentType: string; body: Buffer } | undefined;
  try {
    asset = pageAssets().get(name);
  } catch (error) {
    response.writeHead(500, { ...PAGE_HEADERS, "content-type": "text/plain" });
    response.end(`${error instanceof Error ? error.message : String(error)}\n`);
    return;
  }
  if (!asset) {
    response.writeHead(404, { ...PAGE_HEADERS, "content-type": "text/plain" });
    response.end("not found\n");
    return;
  }
  response.writeHead(200, {
    ...PAGE_HEADERS,
    "content-type": asset.contentType,
    "content-length": asset.body.length,
  });
  response.end(asset.body);
}

export function upstreamViews(gateway: Gateway): UpstreamView[] {
  return gateway.statuses().map((status: UpstreamStatus) => ({
    server: status.server,
    state: status.state,
    transport: status.transport ?? null,
    toolCount: status.toolCount,
    restarts: status.restarts,
    ...(status.error !== undefined && { error: status.error.slice(0, MAX_ERROR_CHARS) }),
  }));
}

/** The latest records and refusals of the audit log, newest first, for the lists on first load. */
async function auditHistory(gateway: Gateway): Promise<AuditRecord[]> {
  const store = gateway.store;
  if (!store) return [];
  try {
    const byId = new Map<number, AuditRecord>();
    const [recent, denied] = await Promise.all([
      store.audit.list({ limit: MAX_RECENT }),
      store.audit.list({ denied: true, limit: MAX_ALERTS }),
    ]);
    for (const record of recent) byId.set(record.id, record);
    for (const record of denied) byId.set(record.id, record);
    return [...byId.values()].sort((a, b) => b.id - a.id);
  } catch {
    // A store that cannot be read costs the history, not the dashboard.
    return [];
  }
}
