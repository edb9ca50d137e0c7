import type { AnomalySettings } from "../../config/anomalies.ts";
import { PooledMean, RollingCounter } from "./rolling-counter.ts";
import type { AnomalyKind } from "./types.ts";

/** One (session, tool)'s running means: the baseline a single call is compared with. */
export interface ToolStats {
  calls: number;
  argsBytes: number;
  bytesOut: number;
  durationMs: number;
}

/** At most this many sessions, and tools per session, are followed; beyond, the first seen go first. */
const MAX_SESSIONS = 10_000;
const MAX_TOOLS_PER_SESSION = 200;

/** One session's rolling windows: calls, refusals, errors, bytes read; its tools; its last alerts. */
export class SessionActivity {
  readonly calls: RollingCounter;
  readonly denials: RollingCounter;
  readonly errors: RollingCounter;
  readonly bytesRead: RollingCounter;
  /** Tool calls of the executions ended in the burst window: back-to-back ordinary programs are expected calls, not a burst. */
  readonly endedCalls: RollingCounter;
  readonly tools = new Map<string, ToolStats>();
  /** Executions ended and the tool calls they made, for the usual calls per execution. */
  executions = 0;
  executionCalls = 0;
  /** When each kind last alerted, for the cooldown. */
  readonly alerted = new Map<AnomalyKind, number>();
  lastSeen = 0;

  constructor(settings: AnomalySettings) {
    this.calls = new RollingCounter(settings.burst.windowSeconds * 1000);
    this.denials = new RollingCounter(settings.denials.windowSeconds * 1000);
    this.errors = new RollingCounter(settings.errors.windowSeconds * 1000);
    this.bytesRead = new RollingCounter(settings.exfiltration.windowSeconds * 1000);
    this.endedCalls = new RollingCounter(settings.burst.windowSeconds * 1000);
  }

  /** Mean tool calls per execution; 0 before the first ends. */
  callsPerExecution(): number {
    return this.executions === 0 ? 0 : this.executionCalls / this.executions;
  }

  /** Counts an ended execution and the tool calls it made. */
  executionEnded(now: number, toolCalls: number): void {
    this.executions++;
    this.executionCalls += toolCalls;
    this.endedCalls.add(now, toolCalls);
  }

  /** The stats of one of its tools, created when new (past the cap, the first seen is dropped). */
  tool(name: string): ToolStats {
    let stats = this.tools.get(name);
    if (!stats) {
      if (this.tools.size >= MAX_TOOLS_PER_SESSION) {
        const oldest = this.tools.keys().next().value;
        if (oldest !== undefined) this.tools.delete(oldest);
      }
      stats = { calls: 0, argsBytes: 0, bytesOut: 0, durationMs: 0 };
      this.tools.set(name, stats);
    }
    return stats;
  }
}

/**
 * Every active session's activity plus the gateway-wide usual of each
 * counter (the mean over all sessions' past windows). Sessions idle longer
 * than `idleSessionSeconds` are forgotten by a sweep every quarter of that
 * (amortised O(1) per call); past MAX_SESSIONS the oldest tenth goes at once.
 * Calls never reorder the map: deleting and re-adding a key per call leaves
 * holes that every later walk from its front must skip.
 */
export class ActivityStats {
  readonly #settings: AnomalySettings;
  readonly #sessions = new Map<string, SessionActivity>();
  #nextSweep = Number.NEGATIVE_INFINITY;
  readonly gateway = {
    denials: new PooledMean(),
    errors: new PooledMean(),
    /** Tool calls per execution, over every session's executions. */
    executionCalls: new PooledMean(),
  };

  constructor(settings: AnomalySettings) {
    this.#settings = settings;
  }

  /** The session's activity, marked active at `now`. */
  session(key: string, now: number): SessionActivity {
    if (now >= this.#nextSweep) this.#sweep(now);
    let activity = this.#sessions.get(key);
    if (!activity) {
      if (this.#sessions.size >= MAX_SESSIONS) this.#dropOldest(Math.ceil(MAX_SESSIONS / 10));
      activity = new SessionActivity(this.#settings);
      this.#sessions.set(key, activity);
    }
    activity.lastSeen = now;
    return activity;
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Drops the sessions idle for `idleSessionSeconds`; runs every quarter of that. */
  #sweep(now: number): void {
    const idleMs = this.#settings.idleSessionSeconds * 1000;
    this.#nextSweep = now + idleMs / 4;
    for (const [key, activity] of this.#sessions)
      if (now - activity.lastSeen >= idleMs) this.#sessions.delete(key);
  }

  /** Drops the `count` sessions first seen longest ago (the map keeps that order). */
  #dropOldest(count: number): void {
    let left = count;
    for (const key of this.#sessions.keys()) {
      if (left-- <= 0) return;
      this.#sessions.delete(key);
    }
  }
}
