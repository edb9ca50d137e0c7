import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { BridgeError } from "../bridge/errors.ts";
import { createExecutionBridge } from "../bridge/execution-bridge.ts";
import type { Upstream } from "../bridge/types.ts";
import { ArgumentValidator } from "../bridge/validate.ts";
import { Catalog } from "../catalog/catalog.ts";
import { CallLedger } from "../output/accounting.ts";
import { accountingMiddleware } from "../output/accounting-middleware.ts";
import { UpstreamError } from "../upstream/errors.ts";
import { privacyMiddleware } from "./middleware.ts";
import { toolGlobMatcher } from "./tool-glob.ts";
import { PiiVault } from "./vault.ts";

const catalog = new Catalog(["crm", "internal"]);
catalog.setServerTools("crm", [
  { name: "find_contact", inputSchema: { type: "object", properties: { name: { type: "string" } } } },
  {
    name: "create_lead",
    inputSchema: {
      type: "object",
      properties: { email: { type: "string", format: "email" }, note: { type: "string" } },
      required: ["email"],
    },
  },
  { name: "slow", inputSchema: { type: "object" } },
]);
catalog.setServerTools("internal", [{ name: "echo", inputSchema: { type: "object" } }]);

interface Received {
  tool: string;
  args: unknown;
}

function setup(exclude?: string[]) {
  const received: Received[] = [];
  const upstream: Upstream = {
    async callTool(_server, tool, args): Promise<CallToolResult> {
      received.push({ tool, args });
      switch (tool) {
        case "find_contact":
          return {
            content: [],
            structuredContent: {
              name: "Ann Lee",
              email: "ann.lee@example.com",
              phone: "+1 415-555-2671",
              visits: 12,
            },
          };
        case "create_lead": {
          const email = (args as { email: string }).email;
          if (email.startsWith("carol")) {
            return { content: [{ type: "text", text: `no account for ${email}` }], isError: true };
          }
          return { content: [{ type: "text", text: JSON.stringify({ created: true, email }) }] };
        }
        case "slow":
          throw new UpstreamError("upstream.timeout", "crm timed out looking up dan@example.com", {
            server: "crm",
          });
        default:
          return { content: [{ type: "text", text: JSON.stringify(args) }] };
      }
    },
  };
  const vault = new PiiVault();
  const ledger = new CallLedger();
  const { bridge } = createExecutionBridge({
    catalog,
    upstream,
    middleware: [
      accountingMiddleware(ledger),
      privacyMiddleware(vault, exclude ? { exclude: toolGlobMatcher(exclude) } : {}),
      new ArgumentValidator().middleware(),
    ],
  });
  const call = (server: string, tool: string, args: unknown) =>
    bridge.callTool(server, tool, args, new AbortController().signal);
  return { call, received, vault, ledger };
}

describe("privacyMiddleware", () => {
  test("results reach the code tokenized; tokens in arguments reach the upstream as real values", async () => {
    const { call, received, ledger } = setup();
    const contact = await call("crm", "find_contact", { name: "Ann" });
    assert.deepEqual(contact, { name: "Ann Lee", email: "[EMAIL_1]", phone: "[PHONE_1]", visits: 12 });

    // The token passes the schema's `format: "email"` because validation runs after detokenization.
    const created = await call("crm", "create_lead", { email: "[EMAIL_1]", note: "call [PHONE_1] first" });
    assert.deepEqual(received[1], {
      tool: "create_lead",
      args: { email: "ann.lee@example.com", note: "call +1 415-555-2671 first" },
    });
    // The upstream echoed the real address back; the code sees the same token again.
    assert.deepEqual(created, { created: true, email: "[EMAIL_1]" });
    // Accounting (outermost) saw what the sandbox saw.
    const seenArgs = [{ name: "Ann" }, { email: "[EMAIL_1]", note: "call [PHONE_1] first" }];
    const seenResults = [contact, created];
    const chars = (values: unknown[]) =>
      values.reduce((n: number, value) => n + JSON.stringify(value).length, 0);
    assert.equal(ledger.args.chars, chars(seenArgs));
    assert.equal(ledger.results.chars, chars(seenResults));
  });

  test("tool errors that quote personal data are tokenized, class and code kept", async () => {
    const { call } = setup();
    await assert.rejects(call("crm", "create_lead", { email: "carol@example.com" }), (error: unknown) => {
      assert.ok(error instanceof BridgeError);
      assert.equal(error.name, "ToolError");
      assert.equal(error.code, "tool.failed");
      assert.equal(error.message, "crm/create_lead failed: no account for [EMAIL_1]");
      assert.deepEqual(error.data.content, ["no account for [EMAIL_1]"]);
      return true;
    });
    await assert.rejects(call("crm", "slow", {}), (error: unknown) => {
      assert.ok(error instanceof BridgeError);
      assert.equal(error.code, "tool.timeout");
      assert.equal(error.message, "crm timed out looking up [EMAIL_2]");
      return true;
    });
  });

  test("validation errors never quote the real value back", async () => {
    const { call, vault } = setup();
    vault.tokenize("+1 415-555-2671");
    await assert.rejects(call("crm", "create_lead", { email: "[PHONE_1]" }), (error: unknown) => {
      assert.ok(error instanceof BridgeError);
      assert.equal(error.name, "ValidationError");
      assert.ok(!JSON.stringify({ message: error.message, data: error.data }).includes("415"));
      return true;
    });
  });

  test("excluded tools get neither: raw results, and tokens stay tokens", async () => {
    const { call, received } = setup(["internal"]);
    await call("crm", "find_contact", {});
    const echoed = await call("internal", "echo", { to: "[EMAIL_1]", cc: "eve@example.com" });
    assert.deepEqual(received[1]?.args, { to: "[EMAIL_1]", cc: "eve@example.com" });
    assert.deepEqual(echoed, { to: "[EMAIL_1]", cc: "eve@example.com" });
  });
});

describe("privacyMiddleware on a large result", () => {
  test("another session's work runs while a 20 MB digit-heavy result is scanned", async () => {
    const tool = catalog.find("crm/find_contact");
    assert.ok(tool);
    const big = `${"12345 ".repeat(3_500_000)}owner ann@example.com`;
    const order: string[] = [];
    const middleware = privacyMiddleware(new PiiVault());
    const scanned = middleware({ tool, args: {}, signal: new AbortController().signal }, async () => ({
      rows: [big],
    })).then((result) => {
      order.push("large result");
      return result as { rows: string[] };
    });
    // Queued once the scan has begun: it stands for I/O of another session.
    await Promise.resolve();
    setImmediate(() => order.push("other session"));
    const result = await scanned;
    assert.deepEqual(order, ["other session", "large result"]);
    assert.ok(result.rows[0]?.endsWith("owner [EMAIL_1]"));
  });
});

describe("toolGlobMatcher", () => {
  test("server/tool globs on original names; a bare name is a whole server", () => {
    const find = catalog.find("crm/find_contact");
    const create = catalog.find("crm/create_lead");
    const echo = catalog.find("internal/echo");
    assert.ok(find && create && echo);
    const match = toolGlobMatcher(["crm/find_*", "internal"]);
    assert.deepEqual([find, create, echo].map(match), [true, false, true]);
    assert.equal(toolGlobMatcher([])(find), false);
    assert.equal(toolGlobMatcher(["*/*"])(create), true);
  });
});
