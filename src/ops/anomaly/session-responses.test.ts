import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { liftedWhen, SessionResponses } from "./session-responses.ts";

describe("SessionResponses", () => {
  test("a response lasts its TTL, then lifts by itself", () => {
    let now = 0;
    const responses = new SessionResponses(60_000, () => now);
    responses.impose("a", "block", "burst", "burst of 400 calls");
    const blocked = responses.blocked("a");
    assert.equal(blocked?.kind, "burst");
    assert.match(liftedWhen(blocked ?? { kind: "burst", why: "", until: 0 }), /responseTtlSeconds/);
    assert.equal(responses.approvalRequired("a"), undefined);
    now = 60_000;
    assert.equal(responses.blocked("a"), undefined);
  });

  test("TTL 0: until the gateway restarts", () => {
    let now = 0;
    const responses = new SessionResponses(0, () => now);
    responses.impose("a", "approve", "denials", "12 policy denials");
    now = 1e12;
    const imposed = responses.approvalRequired("a");
    assert.equal(imposed?.kind, "denials");
    assert.equal(
      liftedWhen(imposed ?? { kind: "denials", why: "", until: undefined }),
      "lifted when the gateway restarts",
    );
  });
});
