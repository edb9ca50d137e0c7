import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { anomaliesSchema } from "../../config/anomalies.ts";
import { detectBurst } from "./burst.ts";
import { detectExfiltration } from "./exfiltration.ts";
import { SessionActivity } from "./session-activity.ts";
import { detectSpike } from "./spike.ts";

const settings = anomaliesSchema.parse({});

describe("detectBurst", () => {
  test("stays quiet under the floor: a first program of 50 calls", () => {
    const activity = new SessionActivity(settings);
    for (let call = 0; call < 50; call++) activity.calls.add(1_000 + call, 1);
    assert.equal(detectBurst(activity, 0, settings.burst, 1_100), undefined);
  });

  test("fires at the floor for a session and gateway with small usuals, naming both", () => {
    const activity = new SessionActivity(settings);
    activity.calls.add(0, 2);
    for (let call = 0; call < 412; call++) activity.calls.add(20_000 + call, 1);
    const finding = detectBurst(activity, 3, settings.burst, 20_500);
    assert.equal(finding?.kind, "burst");
    assert.equal(finding?.observed, 412);
    assert.equal(finding?.threshold, 200);
    assert.equal(finding?.why, "burst of 412 calls in 10 s (its usual 2, the gateway's 3)");
  });

  test("a session that usually makes 100 calls per execution needs 5 times that", () => {
    const activity = new SessionActivity(settings);
    activity.executionEnded(0, 150);
    activity.executionEnded(1, 50);
    // Both ended over 10 s ago: only the running program is in the window.
    activity.calls.add(20_000, 499);
    assert.equal(detectBurst(activity, 0, settings.burst, 20_000), undefined);
    activity.calls.add(20_000, 1);
    const finding = detectBurst(activity, 0, settings.burst, 20_000);
    assert.equal(finding?.threshold, 500);
    assert.equal(finding?.why, "burst of 500 calls in 10 s (its usual 100, the gateway's 0)");
  });

  test("ordinary programs back to back are expected calls; one far above them is a burst", () => {
    const activity = new SessionActivity(settings);
    let now = 0;
    for (let run = 0; run < 40; run++) {
      for (let call = 0; call < 50; call++) {
        activity.calls.add(now, 1);
        assert.equal(detectBurst(activity, 50, settings.burst, now), undefined, `run ${run}`);
        now += 1;
      }
      activity.executionEnded(now, 50);
    }
    // Right after them, a program of 250 calls (5 × its 50 per program) on top of their 2000.
    for (let call = 0; call < 249; call++) activity.calls.add(now, 1);
    assert.equal(detectBurst(activity, 50, settings.burst, now), undefined);
    activity.calls.add(now, 1);
    assert.equal(detectBurst(activity, 50, settings.burst, now)?.threshold, 2_250);
  });

  test("per window too", () => {
    const activity = new SessionActivity(settings);
    activity.calls.add(0, 100);
    activity.calls.add(20_000, 400);
    assert.equal(detectBurst(activity, 0, settings.burst, 20_000), undefined);
    activity.calls.add(20_001, 100);
    assert.equal(detectBurst(activity, 0, settings.burst, 20_001)?.threshold, 500);
  });

  test("the gateway's usual raises the bar too", () => {
    const activity = new SessionActivity(settings);
    activity.calls.add(0, 300);
    assert.equal(detectBurst(activity, 80, settings.burst, 0), undefined);
    assert.equal(detectBurst(activity, 70, settings.burst, 0)?.observed, 300);
  });
});

describe("detectSpike", () => {
  test("denials: at minCount within the window, not below", () => {
    const activity = new SessionActivity(settings);
    for (let denial = 0; denial < 7; denial++) activity.denials.add(1_000 + denial, 1);
    assert.equal(detectSpike("denials", activity.denials, 0, settings.denials, 1_010), undefined);
    activity.denials.add(1_010, 1);
    const finding = detectSpike("denials", activity.denials, 0.5, settings.denials, 1_010);
    assert.equal(finding?.kind, "denials");
    assert.equal(finding?.why, "8 policy denials in 60 s (its usual 0, the gateway's 0.5)");
  });

  test("errors: a session that usually fails often needs factor × its usual", () => {
    const activity = new SessionActivity(settings);
    activity.errors.add(0, 20);
    activity.errors.add(120_000, 60);
    assert.equal(detectSpike("errors", activity.errors, 0, settings.errors, 120_000), undefined);
    activity.errors.add(120_001, 40);
    assert.equal(detectSpike("errors", activity.errors, 0, settings.errors, 120_001)?.observed, 100);
  });
});

describe("detectExfiltration", () => {
  const big = { tool: "mail/send_email", toolUsual: 0, gatewayUsual: 0 };
  test("a large read then a large write-like call", () => {
    const finding = detectExfiltration(
      { ...big, argsBytes: 200_000, readBytes: 2_000_000 },
      settings.exfiltration,
    );
    assert.equal(finding?.kind, "exfiltration");
    assert.equal(
      finding?.why,
      "sent 195 KB to mail/send_email after reading 1.9 MB in 300 s (its usual 0 B there, the gateway's 0 B per write)",
    );
  });

  test("quiet: little read, a small write, or a tool that usually gets this much", () => {
    const check = (facts: Partial<Parameters<typeof detectExfiltration>[0]>) =>
      detectExfiltration(
        { ...big, argsBytes: 200_000, readBytes: 2_000_000, ...facts },
        settings.exfiltration,
      );
    assert.equal(check({ readBytes: 10_000 }), undefined);
    assert.equal(check({ argsBytes: 2_000 }), undefined);
    assert.equal(check({ toolUsual: 150_000 }), undefined);
    assert.equal(check({ gatewayUsual: 100_000 }), undefined);
  });
});
