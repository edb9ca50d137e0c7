import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Catalog } from "../catalog/catalog.ts";
import { plainSentence, SERVER_LINES_MAX_CHARS, summarizeServers } from "./servers-summary.ts";

test("one line per server, bounded however many servers there are", () => {
  const names = Array.from({ length: 500 }, (_, i) => `server-number-${i}`);
  const catalog = new Catalog(names);
  for (const name of names) catalog.setServerTools(name, [{ name: "t", inputSchema: { type: "object" } }]);
  const lines = summarizeServers(catalog, []);
  assert.equal(lines[0], "- server_number_0 (1)");
  assert.match(lines.at(-1) ?? "", /^- … and \d+ more servers \(list_tools shows them all\)$/);
  assert.ok(lines.join("\n").length <= SERVER_LINES_MAX_CHARS + 80);
  const few = summarizeServers(new Catalog(["a", "b"]), [
    { server: "b", state: "failed", transport: "stdio", toolCount: 0, restarts: 0 },
  ]);
  assert.deepEqual(few, ["- a (0)", "- b: failed (0)"]);
});

test("a server's line is `name: one plain sentence`, never its markdown heading", () => {
  const everything = readFileSync(
    new URL(import.meta.resolve("@modelcontextprotocol/server-everything/package.json")).pathname.replace(
      /package\.json$/,
      "dist/docs/instructions.md",
    ),
    "utf8",
  );
  const catalog = new Catalog(["everything"]);
  const [line] = summarizeServers(catalog, [
    {
      server: "everything",
      state: "ready",
      transport: "stdio",
      toolCount: 0,
      restarts: 0,
      instructions: everything,
    },
  ]);
  assert.match(line ?? "", /^- everything: These instructions are written for an LLM\b[^#*`]*\(0\)$/);
  assert.ok((line?.length ?? 0) <= 120, line);
});

test("plainSentence drops headings, labels and markup, and stays bounded", () => {
  assert.equal(
    plainSentence("# Title\n\n## Sub\n\nReads **files** from `disk`. More here.", 80),
    "Reads files from disk.",
  );
  assert.equal(
    plainSentence("Note: Use [the docs](http://x) first.\nSecond line.", 80),
    "Use the docs first.",
  );
  assert.equal(plainSentence("- Lists *items* quickly\n- another", 80), "Lists items quickly");
  assert.equal(plainSentence("# Only A Heading", 80), "Only A Heading");
  assert.equal(plainSentence("```\ncode\n```\nAfter the fence.", 80), "After the fence.");
  assert.equal(plainSentence("", 80), undefined);
  const long = plainSentence(`${"word ".repeat(100)}end.`, 60) ?? "";
  assert.ok(long.length <= 60 && long.endsWith("…"), long);
});
