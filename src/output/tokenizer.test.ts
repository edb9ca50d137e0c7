import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import type { ToolDefinition } from "../catalog/types.ts";
import { toolDefinitionTokens, toolListTokens } from "./accounting.ts";
import { estimateTokens } from "./estimate.ts";
import { claudeLegacyTokenizer, createTokenizer, DEFAULT_TOKENIZER, o200kTokenizer } from "./tokenizer.ts";

interface FixtureServer {
  server: string;
  toolCount: number;
  jsonBytes: number;
  tokensClaude: number;
  tokensO200k: number;
}
interface Fixture {
  totals: { tokensClaudeLegacy: number; tokensO200k: number };
  servers: FixtureServer[];
  tools: Array<ToolDefinition & { server: string }>;
}

const fixture = JSON.parse(
  readFileSync(new URL("../../test/fixtures/catalog.json", import.meta.url), "utf8"),
) as Fixture;

/** A server's tools as its tools/list returns them (the fixture adds a `server` key to each). */
function definitionsOf(server: string): ToolDefinition[] {
  return fixture.tools.filter((tool) => tool.server === server).map(({ server: _server, ...tool }) => tool);
}

describe("tokenizers against the fixture's published counts", () => {
  test("every server's tools/list JSON counts exactly as the fixture says, with both tokenizers", () => {
    assert.equal(fixture.servers.length, 24);
    for (const server of fixture.servers) {
      const definitions = definitionsOf(server.server);
      assert.equal(definitions.length, server.toolCount);
      assert.equal(Buffer.byteLength(JSON.stringify(definitions)), server.jsonBytes, server.server);
      assert.equal(toolListTokens(definitions, claudeLegacyTokenizer), server.tokensClaude, server.server);
      assert.equal(toolListTokens(definitions, o200kTokenizer), server.tokensO200k, server.server);
    }
  });

  test("85,810 is the catalog as {server, name, description, inputSchema}; full definitions are 103,108", () => {
    // The fixture's total leaves out title, annotations, outputSchema, execution and _meta;
    // its per-server counts (and what a client loads from tools/list) keep every field.
    const reduced = fixture.tools.map(({ server, name, description, inputSchema }) => ({
      server,
      name,
      description,
      inputSchema,
    }));
    const reducedText = JSON.stringify(reduced);
    assert.equal(Buffer.byteLength(reducedText), 377_304);
    assert.equal(claudeLegacyTokenizer.count(reducedText), 85_810);
    assert.equal(claudeLegacyTokenizer.count(reducedText), fixture.totals.tokensClaudeLegacy);
    assert.equal(o200kTokenizer.count(reducedText), fixture.totals.tokensO200k);

    const full = fixture.servers.reduce(
      (sum, server) => sum + toolListTokens(definitionsOf(server.server), claudeLegacyTokenizer),
      0,
    );
    assert.equal(
      full,
      fixture.servers.reduce((sum, server) => sum + server.tokensClaude, 0),
    );
    assert.equal(full, 103_108);
  });

  test("per-definition counts add up to within 1% of the list (the brackets and commas)", () => {
    const definitions = definitionsOf("everything");
    const sum = definitions.reduce(
      (total, tool) => total + toolDefinitionTokens(tool, claudeLegacyTokenizer),
      0,
    );
    const list = toolListTokens(definitions, claudeLegacyTokenizer);
    assert.ok(Math.abs(sum - list) / list < 0.01, `${sum} vs ${list}`);
  });
});

describe("createTokenizer", () => {
  test("the default is the legacy Claude tokenizer; o200k on request", () => {
    assert.equal(DEFAULT_TOKENIZER, "claude-legacy");
    assert.equal(createTokenizer().name, "claude-legacy");
    assert.equal(createTokenizer("o200k").name, "o200k");
  });

  test("empty text is 0 tokens; special-token strings in data are counted, not rejected", () => {
    assert.equal(claudeLegacyTokenizer.count(""), 0);
    assert.equal(o200kTokenizer.count(""), 0);
    assert.ok(o200kTokenizer.count("<|endoftext|> in a log line") > 3);
    assert.ok(claudeLegacyTokenizer.count("<|endoftext|> in a log line") > 3);
  });
});

describe("estimateTokens", () => {
  test("exact below the threshold", () => {
    const text = JSON.stringify(fixture.tools.slice(0, 20));
    assert.deepEqual(estimateTokens(claudeLegacyTokenizer, text), {
      tokens: claudeLegacyTokenizer.count(text),
      exact: true,
    });
  });

  test("sampled above it, within 3% on JSON rows and on the tool catalog", () => {
    const rows = JSON.stringify(
      Array.from({ length: 10_000 }, (_, i) => ({ id: i, name: `user${i}`, score: (i * 7.31) % 100 })),
    );
    for (const text of [rows, JSON.stringify(fixture.tools)]) {
      const estimate = estimateTokens(claudeLegacyTokenizer, text, 100_000);
      const exact = claudeLegacyTokenizer.count(text);
      assert.equal(estimate.exact, false);
      assert.ok(Math.abs(estimate.tokens - exact) / exact < 0.03, `${estimate.tokens} vs ${exact}`);
    }
  });
});
