import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createExecutionBridge } from "../bridge/execution-bridge.ts";
import { serializeResultMiddleware } from "../bridge/serialize-result.ts";
import type { Upstream } from "../bridge/types.ts";
import { Catalog } from "../catalog/catalog.ts";
import { SerializedValue } from "../sandbox/shared/serialized-value.ts";
import { accountExecution, CallLedger, toolDefinitionTokens } from "./accounting.ts";
import { accountingMiddleware } from "./accounting-middleware.ts";
import { MAX_IMAGE_TOKENS } from "./media-size.ts";
import { formatTokenTotals, SessionTokenTotals } from "./session-totals.ts";
import { claudeLegacyTokenizer as tokenizer } from "./tokenizer.ts";

const catalog = new Catalog(["crm"]);
catalog.setServerTools("crm", [
  {
    name: "list_contacts",
    description: "List every contact of the CRM with their details.",
    inputSchema: { type: "object", properties: { limit: { type: "number" } } },
  },
  {
    name: "get_contact",
    description: "Get one contact.",
    inputSchema: { type: "object", properties: { id: { type: "number" } }, required: ["id"] },
  },
]);
const contacts = Array.from({ length: 500 }, (_, i) => ({
  id: i,
  name: `Contact ${i}`,
  stage: i % 3 ? "lead" : "won",
}));

const upstream: Upstream = {
  async callTool(_server, tool, args): Promise<CallToolResult> {
    if (tool === "list_contacts") return { content: [{ type: "text", text: JSON.stringify(contacts) }] };
    const id = (args as { id: number }).id;
    if (id < 0) return { content: [{ type: "text", text: "no such contact" }], isError: true };
    return { content: [], structuredContent: contacts[id] as Record<string, unknown> };
  },
};

async function runCalls(ledger: CallLedger, serialize = false): Promise<void> {
  const { bridge } = createExecutionBridge({
    catalog,
    upstream,
    middleware: [accountingMiddleware(ledger), ...(serialize ? [serializeResultMiddleware()] : [])],
  });
  const signal = new AbortController().signal;
  await bridge.callTool("crm", "list_contacts", {}, signal);
  await bridge.callTool("crm", "get_contact", { id: 7 }, signal);
  await bridge.callTool("crm", "get_contact", { id: 8 }, signal);
  await assert.rejects(bridge.callTool("crm", "get_contact", { id: -1 }, signal), /no such contact/);
}

const ARGS = ["{}", '{"id":7}', '{"id":8}', '{"id":-1}'];
const RESULTS = [
  JSON.stringify(contacts),
  JSON.stringify(contacts[7]),
  JSON.stringify(contacts[8]),
  "crm/get_contact failed: no such contact",
];
const sum = (texts: string[], measure: (text: string) => number) =>
  texts.reduce((total, text) => total + measure(text), 0);

describe("accountingMiddleware", () => {
  test("records each call's tool, the size of its arguments and of its result or error message", async () => {
    for (const serialize of [false, true]) {
      const ledger = new CallLedger();
      await runCalls(ledger, serialize);
      assert.deepEqual(
        [...ledger.tools].map((definition) => definition.name),
        ["list_contacts", "get_contact"],
      );
      assert.equal(
        ledger.args.chars,
        sum(ARGS, (text) => text.length),
      );
      assert.equal(
        ledger.results.chars,
        sum(RESULTS, (text) => text.length),
        `serialize: ${serialize}`,
      );
    }
  });
});

describe("accountExecution", () => {
  test("direct estimate = distinct definitions + arguments + full results; kept = results - returned", async () => {
    const ledger = new CallLedger();
    await runCalls(ledger);
    const code =
      "const all = await tools.crm.list_contacts({});\nreturn all.filter((c) => c.stage === 'won').length;";
    const tokens = accountExecution({ ledger, returnedTokens: 12, code, tokenizer });

    const list = catalog.find("crm/list_contacts");
    const get = catalog.find("crm/get_contact");
    assert.ok(list && get);
    const definitions =
      tokenizer.count(JSON.stringify(list.definition)) + tokenizer.count(JSON.stringify(get.definition));
    const args = sum(ARGS, (text) => tokenizer.count(text));
    const results = sum(RESULTS, (text) => tokenizer.count(text));
    // Definitions, arguments and the code are counted exactly; the 500-contact result is over the
    // sample and its tokens are estimated from it: close to the exact count, not equal.
    assert.equal(tokens.tokenizer, "claude-legacy");
    assert.equal(tokens.returned, 12);
    assert.equal(tokens.code, tokenizer.count(code));
    assert.equal(tokens.definitions, definitions);
    assert.ok(
      Math.abs(tokens.toolResults - results) / results < 0.05,
      `${tokens.toolResults} vs ${results} exact`,
    );
    assert.equal(tokens.keptInSandbox, tokens.toolResults - 12);
    assert.equal(tokens.directEstimate, definitions + args + tokens.toolResults);
    assert.equal(
      toolDefinitionTokens(list.definition, tokenizer),
      tokenizer.count(JSON.stringify(list.definition)),
    );
  });

  test("results that fit the sample are counted exactly", async () => {
    const ledger = new CallLedger();
    const get = catalog.find("crm/get_contact");
    assert.ok(get);
    const { bridge } = createExecutionBridge({
      catalog,
      upstream,
      middleware: [accountingMiddleware(ledger)],
    });
    for (const id of [1, 2, 3])
      await bridge.callTool("crm", "get_contact", { id }, new AbortController().signal);
    const tokens = accountExecution({ ledger, returnedTokens: 0, tokenizer });
    assert.ok(ledger.results.exact);
    assert.equal(
      tokens.toolResults,
      sum(
        [1, 2, 3].map((id) => JSON.stringify(contacts[id])),
        (text) => tokenizer.count(text),
      ),
    );
  });

  test("many small results: counted in one call, within a token or so of counting each", () => {
    const ledger = new CallLedger();
    const texts = Array.from({ length: 200 }, (_, id) =>
      JSON.stringify({ id, status: id % 2 ? "open" : "done" }),
    );
    for (const text of texts) ledger.results.add(text);
    const exact = sum(texts, (text) => tokenizer.count(text));
    const counted = accountExecution({ ledger, returnedTokens: 0, tokenizer }).toolResults;
    assert.ok(Math.abs(counted - exact) <= exact * 0.02, `${counted} vs ${exact}`);
  });

  test("a large result beside small ones: the small ones counted exactly, the large one from its slices", () => {
    const ledger = new CallLedger();
    const csv = Array.from(
      { length: 20_000 },
      (_, id) => `${id},2026-10-${(id % 28) + 1},${(id * 7919) % 100_000}`,
    ).join("\n");
    // Words, fewer tokens per character than the digits: mixing their rate into the large result's would skew it.
    const small = Array.from({ length: 12 }, (_, id) =>
      JSON.stringify({
        entity: `sales ${id}`,
        observations: ["total revenue over the orders of the month", "top region south"],
      }),
    );
    ledger.results.add(csv);
    for (const text of small) ledger.results.add(text);
    const exact = tokenizer.count(csv) + sum(small, (text) => tokenizer.count(text));
    const counted = accountExecution({ ledger, returnedTokens: 0, tokenizer }).toolResults;
    assert.equal(ledger.results.exact, false);
    assert.ok(Math.abs(counted - exact) / exact < 0.05, `${counted} vs ${exact} exact`);
  });

  test("no calls: nothing kept, nothing estimated", () => {
    const tokens = accountExecution({ ledger: new CallLedger(), returnedTokens: 30, tokenizer });
    assert.equal(tokens.directEstimate, 0);
    assert.equal(tokens.keptInSandbox, 0);
    assert.equal(tokens.code, 0);
  });

  test("image data counts as a stub plus the image's own token cost, not as base64 text", () => {
    const image = { type: "image", mimeType: "image/png", data: "A".repeat(100_000) };
    const ledger = new CallLedger();
    ledger.addResult(new SerializedValue(image));
    const tokens = accountExecution({ ledger, returnedTokens: 0, tokenizer });
    assert.equal(
      tokens.toolResults,
      // The data has no readable header: the image counts at the most an image can cost.
      tokenizer.count(JSON.stringify({ ...image, data: "<100000 base64 chars>" })) + MAX_IMAGE_TOKENS,
    );
  });
});

describe("SessionTokenTotals", () => {
  test("sums executions and reports the saving", () => {
    const totals = new SessionTokenTotals();
    const base = { tokenizer: "claude-legacy", toolResults: 0, definitions: 0 };
    totals.add({ ...base, returned: 100, code: 50, keptInSandbox: 9000, directEstimate: 10_000 });
    totals.add({ ...base, returned: 200, code: 150, keptInSandbox: 0, directEstimate: 0 });
    assert.deepEqual(totals.totals, {
      executions: 2,
      returned: 300,
      code: 200,
      toolResults: 0,
      keptInSandbox: 9000,
      directEstimate: 10_000,
      saved: 9500,
      savedPercent: 95,
    });
    assert.equal(
      formatTokenTotals("session abc", totals.totals),
      "session abc: 2 executions, 500 tokens in context (code 200, answers 300), 9,000 kept in the sandbox; direct tool calling ~10,000 (saved 95%)",
    );
  });

  test("never reports a negative saving", () => {
    const totals = new SessionTokenTotals();
    const base = { tokenizer: "claude-legacy", toolResults: 0, definitions: 0, keptInSandbox: 0 };
    totals.add({ ...base, returned: 300, code: 200, directEstimate: 400 });
    const line = formatTokenTotals("session s", totals.totals);
    assert.doesNotMatch(line, /-\d/);
    assert.match(line, /direct tool calling ~400 \(code mode cost ~100 tokens, 25%, more\)/);
    const none = new SessionTokenTotals();
    none.add({ ...base, returned: 10, code: 20, directEstimate: 0 });
    assert.match(formatTokenTotals("session t", none.totals), /no tool calls to compare/);
    assert.doesNotMatch(formatTokenTotals("session t", none.totals), /-\d/);
  });
});
