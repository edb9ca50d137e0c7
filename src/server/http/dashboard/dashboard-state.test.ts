import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ActivityEvent } from "../../../ops/activity.ts";
import type { AuditEntry } from "../../../store/types.ts";
import { BUCKET_MS, DashboardState, MAX_BUCKETS, MAX_RECENT } from "./dashboard-state.ts";

const T0 = 1_700_000_000_000;

/** An audit event; `kind` may be "anomaly", which the anomaly detector records. */
function entry(overrides: Partial<Omit<AuditEntry, "kind">> & { kind?: string }): ActivityEvent {
  return {
    type: "audit",
    entry: {
      kind: "tool_call",
      time: T0,
      session: "session-0123456789abcdef",
      client: "default",
      server: "scripted",
      tool: "echo",
      argsDigest: "x",
      argsBytes: 2,
      outcome: "ok",
      durationMs: 3,
      bytesOut: 10,
      ...overrides,
    } as AuditEntry,
  };
}

function tokens(keptInSandbox: number, time = T0): ActivityEvent {
  return {
    type: "tokens",
    session: "s",
    client: null,
    piiTokens: {},
    time,
    tokens: {
      tokenizer: "t",
      returned: 5,
      code: 20,
      toolResults: keptInSandbox + 5,
      keptInSandbox,
      directEstimate: 100 + keptInSandbox,
      definitions: 50,
    },
  };
}

describe("DashboardState", () => {
  test("counts executions, tool calls by server, denials, anomalies and tokens", () => {
    const state = new DashboardState();
    state.observe(entry({ kind: "execution", server: "", tool: "isolate", detail: { toolCalls: 3 } }));
    state.observe(entry({ kind: "execution", server: "", tool: "isolate", outcome: "runtime:Error" }));
    state.observe(entry({}));
    state.observe(entry({ durationMs: 5 }));
    state.observe(entry({ outcome: "ToolError" }));
    state.observe(entry({ server: "other", outcome: "policy.denied" }));
    state.observe(entry({ kind: "model_call", server: "anthropic", tool: "claude" }));
    state.observe(
      entry({
        kind: "anomaly",
        server: "",
        tool: "burst",
        outcome: "alert",
        detail: { why: "1000 calls in 1 s" },
      }),
    );
    state.observe(tokens(400));
    state.observe(tokens(600));

    const snapshot = state.snapshot(T0);
    assert.deepEqual(snapshot.totals, {
      executions: { ok: 1, error: 1 },
      toolCalls: { ok: 2, error: 1, denied: 1 },
      modelCalls: 1,
      anomalies: 1,
      tokens: { keptOut: 1000, returned: 10, code: 40, saved: 1150 },
    });
    assert.deepEqual(snapshot.servers, [
      { server: "scripted", calls: 3, errors: 1, denials: 0, totalMs: 11 },
      { server: "other", calls: 1, errors: 0, denials: 1, totalMs: 3 },
    ]);
    assert.equal(snapshot.recent.length, 7, "executions, tool calls and model calls");
    assert.equal(snapshot.recent[0]?.toolCalls, 3);
    assert.equal(snapshot.recent[0]?.session, "session-", "sessions are shortened");
    assert.deepEqual(
      snapshot.alerts.map((item) => [item.kind, item.outcome, item.why]),
      [
        ["tool_call", "policy.denied", undefined],
        ["anomaly", "alert", "1000 calls in 1 s"],
      ],
    );
    assert.equal(snapshot.series.length, 1);
    assert.deepEqual(
      { ...snapshot.series[0], version: 0 },
      {
        start: T0 - (T0 % BUCKET_MS),
        executions: 2,
        toolCalls: 4,
        errors: 1,
        denials: 1,
        keptOut: 1000,
        version: 0,
      },
    );
  });

  test("changesSince: absolute totals, only the newer items and the buckets touched since", () => {
    const state = new DashboardState();
    state.observe(entry({ time: T0 }));
    state.observe(entry({ time: T0 + BUCKET_MS }));
    const seen = state.version;
    state.observe(entry({ time: T0 + BUCKET_MS, tool: "add" }));
    const changes = state.changesSince(seen);
    assert.equal(changes.totals.toolCalls.ok, 3);
    assert.deepEqual(
      changes.recent.map((item) => item.tool),
      ["add"],
    );
    assert.deepEqual(
      changes.series.map((bucket) => [bucket.start, bucket.toolCalls]),
      [[T0 - (T0 % BUCKET_MS) + BUCKET_MS, 2]],
    );
    assert.equal(state.changesSince(state.version).recent.length, 0);
  });

  test("a burst stays bounded: lists and series capped, totals exact", () => {
    const state = new DashboardState();
    for (let index = 0; index < 10_000; index += 1)
      state.observe(entry({ time: T0 + index * 1000, outcome: index % 10 === 0 ? "policy.denied" : "ok" }));
    const snapshot = state.snapshot();
    assert.equal(snapshot.totals.toolCalls.ok + snapshot.totals.toolCalls.denied, 10_000);
    assert.equal(snapshot.totals.toolCalls.denied, 1000);
    assert.equal(snapshot.recent.length, MAX_RECENT);
    assert.equal(snapshot.recent.at(-1)?.time, T0 + 9_999_000, "the newest kept");
    assert.equal(snapshot.series.length, MAX_BUCKETS);
    assert.ok(snapshot.alerts.length <= 50);
  });

  test("a record that ends late counts in its own bucket while kept, else only in the totals", () => {
    const state = new DashboardState();
    state.observe(entry({ time: T0 }));
    state.observe(entry({ time: T0 + 2 * BUCKET_MS }));
    state.observe(entry({ time: T0 + 1 }));
    state.observe(entry({ time: T0 - 1000 * BUCKET_MS }));
    const series = state.snapshot().series;
    assert.deepEqual(
      series.map((bucket) => bucket.toolCalls),
      [2, 1],
    );
    assert.equal(state.snapshot().totals.toolCalls.ok, 4);
  });

  test("history from the audit log shows in the lists, counts in no total, skips unfinished calls", () => {
    const state = new DashboardState();
    const audit = (event: ActivityEvent) => (event as { entry: AuditEntry }).entry;
    state.seedHistory([
      audit(entry({ time: T0 + 3, outcome: "started" })),
      audit(entry({ time: T0 + 2, outcome: "policy.denied" })),
      audit(entry({ time: T0 + 1, kind: "execution", server: "", tool: "isolate" })),
    ]);
    const snapshot = state.snapshot();
    assert.equal(snapshot.totals.executions.ok, 0);
    assert.equal(snapshot.totals.toolCalls.denied, 0);
    assert.deepEqual(
      snapshot.recent.map((item) => [item.kind, item.history]),
      [
        ["execution", true],
        ["tool_call", true],
      ],
    );
    assert.equal(snapshot.alerts.length, 1);
    assert.equal(snapshot.series.length, 0);
  });
});
