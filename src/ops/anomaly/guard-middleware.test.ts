import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ToolCall } from "../../bridge/types.ts";
import type { CatalogTool } from "../../catalog/types.ts";
import type { ApprovalRequest } from "../../policy/approval.ts";
import type { PolicyAction } from "../../policy/policy.ts";
import { anomalyGuardMiddleware } from "./guard-middleware.ts";
import { anomalySessionKey, SessionResponses } from "./session-responses.ts";

function call(name: string): ToolCall {
  const tool: CatalogTool = {
    server: "mail",
    tool: name,
    serverId: "mail",
    toolId: name,
    path: `tools.mail.${name}`,
    definition: { name, inputSchema: { type: "object" } },
  };
  return { tool, args: { to: "x" }, signal: new AbortController().signal };
}

const next = async () => "sent";

function guard(answer?: boolean) {
  const responses = new SessionResponses(0);
  const asked: ApprovalRequest[] = [];
  const decisions = new Map<string, PolicyAction>();
  const middleware = anomalyGuardMiddleware({
    responses,
    session: "b",
    client: null,
    policy: { decide: (tool) => ({ action: decisions.get(tool.tool) ?? "allow", reason: "" }) },
    approver:
      answer === undefined
        ? undefined
        : async (request) => {
            asked.push(request);
            return answer;
          },
  });
  return { responses, asked, decisions, middleware };
}

describe("anomalyGuardMiddleware", () => {
  test("a session without responses: calls pass, nobody is asked", async () => {
    const { middleware, asked } = guard(true);
    assert.equal(await middleware(call("send_mail"), next), "sent");
    assert.deepEqual(asked, []);
  });

  test("block: every call refused with anomaly.blocked, naming the kind and how it lifts", async () => {
    const { middleware, responses } = guard(true);
    responses.impose(anomalySessionKey("b", null), "block", "burst", "burst of 412 calls in 10 s");
    await assert.rejects(middleware(call("read_mail"), next), (error: Error & { code?: string }) => {
      assert.equal(error.code, "anomaly.blocked");
      assert.match(error.message, /blocked after anomaly "burst" \(burst of 412 calls in 10 s\)/);
      assert.match(error.message, /lifted when the gateway restarts/);
      return true;
    });
  });

  test("approve: side-effecting calls are asked about; read-only ones are not", async () => {
    const { middleware, responses, asked } = guard(true);
    responses.impose(anomalySessionKey("b", null), "approve", "denials", "12 policy denials in 60 s");
    assert.equal(await middleware(call("read_mail"), next), "sent");
    assert.equal(await middleware(call("send_mail"), next), "sent");
    assert.deepEqual(
      asked.map((request) => [request.tool, /had anomaly "denials"/.test(request.reason)]),
      [["send_mail", true]],
    );
  });

  test("approve: declined, or a client that cannot be asked, is a clear refusal", async () => {
    const declined = guard(false);
    declined.responses.impose(anomalySessionKey("b", null), "approve", "exfiltration", "sent 1 MB");
    await assert.rejects(declined.middleware(call("send_mail"), next), { code: "anomaly.declined" });
    const mute = guard();
    mute.responses.impose(anomalySessionKey("b", null), "approve", "exfiltration", "sent 1 MB");
    await assert.rejects(mute.middleware(call("send_mail"), next), (error: Error & { code?: string }) => {
      assert.equal(error.code, "anomaly.no_approver");
      assert.match(error.message, /anomaly "exfiltration".*cannot ask the user/);
      return true;
    });
  });

  test("a call the policy asks about (or denies) itself is not asked about here", async () => {
    const { middleware, responses, asked, decisions } = guard(true);
    responses.impose(anomalySessionKey("b", null), "approve", "denials", "12 policy denials");
    decisions.set("send_mail", "approve");
    decisions.set("delete_mail", "deny");
    assert.equal(await middleware(call("send_mail"), next), "sent");
    assert.equal(await middleware(call("delete_mail"), next), "sent");
    assert.deepEqual(asked, []);
  });
});
