import type { AnomalySettings } from "../../config/anomalies.ts";
import type { Logger } from "../../gateway/logger.ts";
import type { AuditEntry } from "../../store/types.ts";
import type { ActivityEvent } from "../activity.ts";
import { anomalyAuditEntry, anomalyLine } from "./alert.ts";
import { detectBurst } from "./burst.ts";
import { detectExfiltration } from "./exfiltration.ts";
import { PooledMean } from "./rolling-counter.ts";
import { ActivityStats, type SessionActivity } from "./session-activity.ts";
import { anomalySessionKey, SessionResponses } from "./session-responses.ts";
import { detectSpike } from "./spike.ts";
import type { AnomalyFinding } from "./types.ts";

export interface AnomalyDetectorOptions {
  settings: AnomalySettings;
  logger: Logger;
  /** Writes the alert's audit record (which the metrics then count). */
  record(entry: AuditEntry): void;
  /** Whether `server/tool` may change or send something (write-like.ts). */
  writeLike(server: string, tool: string): boolean;
  now?: () => number;
}

/** Outcomes of calls that never reached the upstream: nothing was sent, nothing failed there. */
function refused(outcome: string): boolean {
  return outcome.startsWith("policy.") || outcome.startsWith("anomaly.") || outcome.startsWith("limit.");
}

/**
 * Watches the final audit records of tool calls (the activity feed), keeps
 * rolling baselines per session, per (session, tool) and gateway-wide, and
 * alerts when a session departs from them: a record, a metric (through the
 * record), a stderr line, and the configured response. O(1) per call.
 */
export class AnomalyDetector {
  readonly responses: SessionResponses;
  readonly #settings: AnomalySettings;
  readonly #options: AnomalyDetectorOptions;
  readonly #stats: ActivityStats;
  readonly #writeArgs = new PooledMean();
  readonly #now: () => number;

  constructor(options: AnomalyDetectorOptions) {
    this.#options = options;
    this.#settings = options.settings;
    this.#now = options.now ?? Date.now;
    this.#stats = new ActivityStats(options.settings);
    this.responses = new SessionResponses(options.settings.responseTtlSeconds * 1000, this.#now);
  }

  observe(event: ActivityEvent): void {
    if (!this.#settings.enabled || event.type !== "audit") return;
    const entry = event.entry;
    const kind = entry.kind ?? "tool_call";
    if (kind !== "tool_call" && kind !== "execution") return;
    const now = this.#now();
    const key = anomalySessionKey(entry.session, entry.client);
    const activity = this.#stats.session(key, now);
    if (kind === "execution") {
      const calls = entry.detail?.toolCalls;
      if (typeof calls !== "number") return;
      activity.executionEnded(now, calls);
      this.#stats.gateway.executionCalls.add(calls);
      return;
    }
    for (const finding of [...this.#countCall(activity, entry, now)])
      this.#alert(activity, key, entry, finding, now);
  }

  /** Sessions followed now (bounded by eviction). */
  get sessions(): number {
    return this.#stats.size;
  }

  /** Adds the call to the session's windows and its tool's means; yields what crossed a threshold. */
  *#countCall(activity: SessionActivity, entry: AuditEntry, now: number): Generator<AnomalyFinding> {
    const gateway = this.#stats.gateway;
    const settings = this.#settings;
    const denied = entry.outcome.startsWith("policy.");
    const failed = entry.outcome !== "ok" && !refused(entry.outcome);
    activity.calls.add(now, 1);
    pool(gateway.denials, activity.denials.add(now, denied ? 1 : 0));
    pool(gateway.errors, activity.errors.add(now, failed ? 1 : 0));
    const toolName = `${entry.server}/${entry.tool}`;
    const tool = activity.tool(toolName);
    const toolUsual = tool.calls === 0 ? 0 : tool.argsBytes / tool.calls;
    // Only calls that went out make a tool's usual.
    if (!refused(entry.outcome)) {
      tool.calls++;
      tool.argsBytes += entry.argsBytes;
      tool.bytesOut += entry.bytesOut ?? 0;
      tool.durationMs += entry.durationMs;
    }
    const writes = this.#options.writeLike(entry.server, entry.tool);
    if (!writes) activity.bytesRead.add(now, entry.bytesOut ?? 0);

    const burst = detectBurst(activity, gateway.executionCalls.mean(), settings.burst, now);
    if (burst) yield burst;
    if (denied) {
      const spike = detectSpike("denials", activity.denials, gateway.denials.mean(), settings.denials, now);
      if (spike) yield spike;
    }
    if (failed) {
      const spike = detectSpike("errors", activity.errors, gateway.errors.mean(), settings.errors, now);
      if (spike) yield spike;
    }
    // A refused write sent nothing.
    if (writes && !refused(entry.outcome)) {
      const exfiltration = detectExfiltration(
        {
          tool: toolName,
          argsBytes: entry.argsBytes,
          readBytes: activity.bytesRead.recent(now),
          toolUsual,
          gatewayUsual: this.#writeArgs.mean(),
        },
        settings.exfiltration,
      );
      this.#writeArgs.add(entry.argsBytes);
      if (exfiltration) yield exfiltration;
    }
  }

  /** Records, counts and logs a finding, once per session and kind per cooldown; imposes its response. */
  #alert(
    activity: SessionActivity,
    key: string,
    entry: AuditEntry,
    finding: AnomalyFinding,
    now: number,
  ): void {
    const last = activity.alerted.get(finding.kind);
    if (last !== undefined && now - last < this.#settings.cooldownSeconds * 1000) return;
    activity.alerted.set(finding.kind, now);
    const response = this.#settings.responses[finding.kind];
    if (response !== "log") this.responses.impose(key, response, finding.kind, finding.why);
    const alert = {
      ...finding,
      time: now,
      session: entry.session ?? "",
      client: entry.client ?? null,
      response,
    };
    this.#options.logger.warn(anomalyLine(alert));
    this.#options.record(anomalyAuditEntry(alert));
  }
}

function pool(mean: PooledMean, closed: number | undefined): void {
  if (closed !== undefined) mean.add(closed);
}
