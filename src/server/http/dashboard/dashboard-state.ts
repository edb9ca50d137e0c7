import type { ActivityEvent } from "../../../ops/activity.ts";
import type { ExecutionTokens } from "../../../output/accounting.ts";
import type { AuditEntry } from "../../../store/types.ts";

/** Width of one point of the time series. */
export const BUCKET_MS = 10_000;
/** Points kept: 15 minutes of 10-second buckets. */
export const MAX_BUCKETS = 90;
/** Recent executions, tool calls and model calls kept for the tables. */
export const MAX_RECENT = 100;
/** Recent denials and anomalies kept. */
export const MAX_ALERTS = 50;
/** Characters of a session id shown: enough to correlate rows, not a usable handle. */
const SESSION_CHARS = 8;
/** Characters of an anomaly's explanation kept. */
const MAX_WHY_CHARS = 300;

export type ItemKind = "execution" | "tool_call" | "model_call" | "anomaly";

/** One audit record as the page shows it: no arguments, no results, a shortened session. */
export interface DashboardItem {
  /** Order of arrival; the page drops items it already holds by it. */
  seq: number;
  time: number;
  kind: ItemKind;
  client: string | null;
  session: string | null;
  server: string;
  tool: string;
  outcome: string;
  durationMs: number;
  bytesOut: number | null;
  /** Tool calls made by an execution. */
  toolCalls?: number;
  /** An anomaly's explanation. */
  why?: string;
  /** Read from the audit log at start, from before this process served. */
  history?: true;
}

export interface ServerTally {
  server: string;
  calls: number;
  errors: number;
  denials: number;
  totalMs: number;
}

export interface DashboardTotals {
  executions: { ok: number; error: number };
  toolCalls: { ok: number; error: number; denied: number };
  modelCalls: number;
  anomalies: number;
  tokens: { keptOut: number; returned: number; code: number; saved: number };
}

/** One 10-second point; `version` says when it last changed. */
export interface SeriesBucket {
  start: number;
  executions: number;
  toolCalls: number;
  /** Tool calls that failed (denials apart). */
  errors: number;
  denials: number;
  keptOut: number;
  version: number;
}

export interface DashboardSnapshot {
  now: number;
  version: number;
  bucketMs: number;
  totals: DashboardTotals;
  servers: ServerTally[];
  recent: DashboardItem[];
  alerts: DashboardItem[];
  series: SeriesBucket[];
}

/** What changed after a version: absolute totals, the new items, the touched buckets. */
export type DashboardChanges = DashboardSnapshot;

/**
 * The dashboard's aggregates, fed by the gateway's activity feed: counts since
 * this process started serving, per-server tallies, a bounded time series and
 * bounded lists of recent items. Each event costs O(1) (a burst of thousands
 * of calls a second stays cheap); the page gets changes at most a few times a second.
 */
export class DashboardState {
  #version = 0;
  readonly #totals: DashboardTotals = {
    executions: { ok: 0, error: 0 },
    toolCalls: { ok: 0, error: 0, denied: 0 },
    modelCalls: 0,
    anomalies: 0,
    tokens: { keptOut: 0, returned: 0, code: 0, saved: 0 },
  };
  readonly #servers = new Map<string, ServerTally>();
  /** Oldest first, at most MAX_BUCKETS. */
  readonly #series: SeriesBucket[] = [];
  readonly #recent: DashboardItem[] = [];
  readonly #alerts: DashboardItem[] = [];

  /** Increases with every event heard: unchanged means nothing to send. */
  get version(): number {
    return this.#version;
  }

  observe(event: ActivityEvent): void {
    this.#version += 1;
    if (event.type === "tokens") this.#observeTokens(event.time, event.tokens);
    else if (event.type === "audit") this.#observeAudit(event.entry);
  }

  /**
   * Records from the audit log (newest first, as the store lists them) shown
   * in the lists as history; they count in no total.
   */
  seedHistory(records: readonly AuditEntry[]): void {
    for (const entry of [...records].reverse()) {
      if (entry.outcome === "started") continue;
      this.#version += 1;
      const item: DashboardItem = { ...toItem(entry, this.#version), history: true };
      if (isAlert(item)) push(this.#alerts, item, MAX_ALERTS);
      if (item.kind !== "anomaly") push(this.#recent, item, MAX_RECENT);
    }
  }

  snapshot(now = Date.now()): DashboardSnapshot {
    return this.changesSince(0, now);
  }

  changesSince(version: number, now = Date.now()): DashboardChanges {
    const newer = (item: { seq: number }) => item.seq > version;
    return {
      now,
      version: this.#version,
      bucketMs: BUCKET_MS,
      totals: structuredClone(this.#totals),
      servers: [...this.#servers.values()].map((tally) => ({ ...tally })),
      recent: this.#recent.filter(newer),
      alerts: this.#alerts.filter(newer),
      series: this.#series.filter((bucket) => bucket.version > version).map((bucket) => ({ ...bucket })),
    };
  }

  #observeTokens(time: number, tokens: ExecutionTokens): void {
    const totals = this.#totals.tokens;
    totals.keptOut += tokens.keptInSandbox;
    totals.returned += tokens.returned;
    totals.code += tokens.code;
    totals.saved += Math.max(0, tokens.directEstimate - tokens.code - tokens.returned);
    this.#bucket(time).keptOut += tokens.keptInSandbox;
  }

  #observeAudit(entry: AuditEntry): void {
    const item = toItem(entry, this.#version);
    const bucket = this.#bucket(entry.time);
    const ok = item.outcome === "ok";
    if (item.kind === "anomaly") {
      this.#totals.anomalies += 1;
      push(this.#alerts, item, MAX_ALERTS);
      return;
    }
    push(this.#recent, item, MAX_RECENT);
    if (item.kind === "model_call") {
      this.#totals.modelCalls += 1;
      return;
    }
    if (item.kind === "execution") {
      this.#totals.executions[ok ? "ok" : "error"] += 1;
      bucket.executions += 1;
      return;
    }
    const denied = isDenial(item);
    const tally = this.#tally(item.server);
    tally.calls += 1;
    tally.totalMs += item.durationMs;
    bucket.toolCalls += 1;
    if (denied) {
      this.#totals.toolCalls.denied += 1;
      tally.denials += 1;
      bucket.denials += 1;
      push(this.#alerts, item, MAX_ALERTS);
    } else if (ok) {
      this.#totals.toolCalls.ok += 1;
    } else {
      this.#totals.toolCalls.error += 1;
      tally.errors += 1;
      bucket.errors += 1;
    }
  }

  #tally(server: string): ServerTally {
    let tally = this.#servers.get(server);
    if (!tally) {
      tally = { server, calls: 0, errors: 0, denials: 0, totalMs: 0 };
      this.#servers.set(server, tally);
    }
    return tally;
  }

  /** The bucket holding `time`, made when new; the series stays sorted and bounded. */
  #bucket(time: number): SeriesBucket {
    const start = Math.floor(time / BUCKET_MS) * BUCKET_MS;
    const last = this.#series.at(-1);
    let bucket: SeriesBucket | undefined;
    if (last && last.start === start) bucket = last;
    else if (last && start < last.start) {
      // A record that ended late (a long call) lands in its own, older bucket if still kept.
      bucket = this.#series.find((candidate) => candidate.start === start) ?? this.#scratch(start);
    } else {
      bucket = { start, executions: 0, toolCalls: 0, errors: 0, denials: 0, keptOut: 0, version: 0 };
      this.#series.push(bucket);
      if (this.#series.length > MAX_BUCKETS) this.#series.shift();
    }
    bucket.version = this.#version;
    return bucket;
  }

  /** Too old to keep: counted nowhere in the series (the totals still have it). */
  #scratch(start: number): SeriesBucket {
    return { start, executions: 0, toolCalls: 0, errors: 0, denials: 0, keptOut: 0, version: 0 };
  }
}

function toItem(entry: AuditEntry, seq: number): DashboardItem {
  // `anomaly` records come from the anomaly detector; the store's type may not name the kind yet.
  const kind = (entry.kind ?? "tool_call") as string;
  const item: DashboardItem = {
    seq,
    time: entry.time,
    kind: kind === "execution" || kind === "model_call" || kind === "anomaly" ? kind : "tool_call",
    client: entry.client ?? null,
    session: entry.session === null ? null : entry.session.slice(0, SESSION_CHARS),
    server: entry.server,
    tool: entry.tool,
    outcome: entry.outcome,
    durationMs: entry.durationMs,
    bytesOut: entry.bytesOut ?? null,
  };
  const detail = entry.detail ?? {};
  if (item.kind === "execution" && typeof detail.toolCalls === "number") item.toolCalls = detail.toolCalls;
  if (typeof detail.why === "string") item.why = detail.why.slice(0, MAX_WHY_CHARS);
  return item;
}

/** A tool call the policy refused (denied, or its approval declined). */
function isDenial(item: DashboardItem): boolean {
  return item.kind === "tool_call" && item.outcome.startsWith("policy.");
}

function isAlert(item: DashboardItem): boolean {
  return item.kind === "anomaly" || isDenial(item);
}

function push(ring: DashboardItem[], item: DashboardItem, max: number): void {
  ring.push(item);
  if (ring.length > max) ring.shift();
}
