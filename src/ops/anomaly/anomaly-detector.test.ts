import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type AnomalySettings, anomaliesSchema } from "../../config/anomalies.ts";
import type { AuditEntry } from "../../store/types.ts";
import { AnomalyDetector } from "./anomaly-detector.ts";
import { anomalySessionKey } from "./session-responses.ts";

function harness(overrides: Record<string, unknown> = {}) {
  const settings: AnomalySettings = anomaliesSchema.parse(overrides);
  let now = 1_000_000;
  const records: AuditEntry[] = [];
  const lines: string[] = [];
  const detector = new AnomalyDetector({
    settings,
    logger: { info() {}, warn: (line) => lines.push(line), error() {} },
    record: (entry) => records.push(entry),
    writeLike: (_server, tool) => tool.startsWith("send"),
    now: () => now,
  });
  const call = (session: string, facts: Partial<AuditEntry> = {}) =>
    detector.observe({
      type: "audit",
      entry: {
        kind: "tool_call",
        time: now,
        session,
        client: null,
        server: "s",
        tool: "echo",
        argsDigest: "",
        argsBytes: 20,
        outcome: "ok",
        durationMs: 1,
        bytesOut: 30,
        ...facts,
      },
    });
  const execution = (session: string, toolCalls: number) =>
    detector.observe({
      type: "audit",
      entry: {
        kind: "execution",
        time: now,
        session,
        server: "",
        tool: "isolate",
        argsDigest: "",
        argsBytes: 100,
        outcome: "ok",
        durationMs: 5,
        detail: { toolCalls },
      },
    });
  return {
    detector,
    records,
    execution,
    lines,
    call,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe("AnomalyDetector", () => {
  test("ordinary use never alerts: first executions, loops of 20-50 calls back to back, a few refusals", () => {
    const gateway = harness();
    for (let session = 0; session < 20; session++) {
      for (let run = 0; run < 5; run++) {
        for (let call = 0; call < 50; call++) gateway.call(`s${session}`);
        gateway.call(`s${session}`, { outcome: "policy.denied" });
        gateway.call(`s${session}`, { outcome: "ToolError" });
        gateway.execution(`s${session}`, 52);
        gateway.advance(3_000);
      }
    }
    // One session running programs of 50 calls back to back, without a pause.
    for (let run = 0; run < 30; run++) {
      for (let call = 0; call < 50; call++) gateway.call("back-to-back");
      gateway.execution("back-to-back", 50);
    }
    // Three programs of 50 calls at once in a new session: none has ended to set its usual.
    for (let call = 0; call < 150; call++) gateway.call("concurrent");
    assert.equal(gateway.records.length, 0);
    assert.deepEqual(gateway.lines, []);
  });

  test("a burst: one record, one line, once per cooldown; other sessions untouched", () => {
    const gateway = harness();
    gateway.call("quiet");
    for (let call = 0; call < 400; call++) gateway.call("noisy");
    assert.equal(gateway.records.length, 1);
    const [record] = gateway.records;
    assert.equal(record?.kind, "anomaly");
    assert.equal(record?.session, "noisy");
    assert.equal(record?.tool, "burst");
    assert.equal(record?.outcome, "log");
    assert.equal(record?.detail?.observed, 200);
    assert.deepEqual(gateway.lines, [
      'anomaly: session "noisy": burst of 200 calls in 10 s (its usual 0, the gateway\'s 0); response: log',
    ]);
    gateway.advance(30_000);
    for (let call = 0; call < 400; call++) gateway.call("noisy");
    assert.equal(gateway.records.length, 1, "not again within the cooldown");
    // Its bursts are now its usual (400 per window): after the cooldown it takes 5 times that.
    gateway.advance(601_000);
    for (let call = 0; call < 1_999; call++) gateway.call("noisy");
    assert.equal(gateway.records.length, 1);
    gateway.call("noisy");
    assert.equal(gateway.records.length, 2, "again after the cooldown");
  });

  test("a burst or a denial series straddling a window boundary still alerts: its start is not its usual", () => {
    const gateway = harness();
    // The harness starts on a window boundary; 100 ms before the next one.
    gateway.advance(59_900);
    for (let call = 0; call < 100; call++) gateway.call("noisy");
    for (let call = 0; call < 4; call++) gateway.call("noisy", { outcome: "policy.denied" });
    gateway.advance(200);
    for (let call = 0; call < 300; call++) gateway.call("noisy");
    for (let call = 0; call < 6; call++) gateway.call("noisy", { outcome: "policy.denied" });
    assert.deepEqual(gateway.lines, [
      'anomaly: session "noisy": burst of 200 calls in 10 s (its usual 0, the gateway\'s 0); response: log',
      'anomaly: session "noisy": 8 policy denials in 60 s (its usual 0, the gateway\'s 0); response: approve',
    ]);
  });

  test("denials spike with response approve: the session needs approval, others do not", () => {
    const gateway = harness();
    for (let call = 0; call < 12; call++) gateway.call("prober", { outcome: "policy.denied" });
    assert.deepEqual(
      gateway.records.map((record) => [record.tool, record.outcome]),
      [["denials", "approve"]],
    );
    assert.equal(
      gateway.detector.responses.approvalRequired(anomalySessionKey("prober", null))?.kind,
      "denials",
    );
    assert.equal(gateway.detector.responses.approvalRequired(anomalySessionKey("other", null)), undefined);
    assert.equal(gateway.detector.responses.blocked(anomalySessionKey("prober", null)), undefined);
  });

  test("errors spike; refusals by the anomaly guard itself are neither errors nor denials", () => {
    const gateway = harness({ responses: { errors: "block" } });
    for (let call = 0; call < 30; call++) gateway.call("guarded", { outcome: "anomaly.blocked" });
    assert.equal(gateway.records.length, 0);
    for (let call = 0; call < 25; call++) gateway.call("flaky", { outcome: "ToolError" });
    assert.deepEqual(
      gateway.records.map((record) => [record.session, record.tool, record.outcome]),
      [["flaky", "errors", "block"]],
    );
    assert.equal(gateway.detector.responses.blocked(anomalySessionKey("flaky", null))?.kind, "errors");
  });

  test("exfiltration: a large read, then a large write-like call; a refused write sent nothing", () => {
    const gateway = harness();
    gateway.call("reader", { tool: "rows", bytesOut: 2_000_000 });
    gateway.call("reader", { tool: "send_mail", argsBytes: 100_000, outcome: "policy.denied" });
    assert.equal(gateway.records.length, 0);
    gateway.call("reader", { tool: "send_mail", argsBytes: 100_000 });
    assert.deepEqual(
      gateway.records.map((record) => [record.tool, record.outcome]),
      [["exfiltration", "approve"]],
    );
    // Without the read first, the same write is ordinary.
    gateway.call("writer", { tool: "send_mail", argsBytes: 100_000 });
    assert.equal(gateway.records.length, 1);
  });

  test("disabled: nothing is followed", () => {
    const gateway = harness({ enabled: false });
    for (let call = 0; call < 400; call++) gateway.call("noisy");
    assert.equal(gateway.records.length, 0);
    assert.equal(gateway.detector.sessions, 0);
  });

  test("idle sessions are forgotten: memory stays bounded", () => {
    const gateway = harness();
    for (let session = 0; session < 100; session++) gateway.call(`s${session}`);
    assert.equal(gateway.detector.sessions, 100);
    // One keeps calling through the idle period; the sweeps forget the rest.
    for (let step = 0; step < 4; step++) {
      gateway.advance(500_000);
      gateway.call("s7");
    }
    gateway.call("late");
    assert.equal(gateway.detector.sessions, 2);
  });

  test("past 10,000 sessions at once, the first seen tenth is dropped", () => {
    const gateway = harness();
    for (let session = 0; session <= 10_000; session++) gateway.call(`s${session}`);
    assert.equal(gateway.detector.sessions, 9_001);
  });
});
