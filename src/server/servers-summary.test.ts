import assert from "node:assert/strict";
import { test } from "node:test";
import { Catalog } from "../catalog/catalog.ts";
import { SERVER_LINES_MAX_CHARS, summarizeServers } from "./servers-summary.ts";

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
  assert.deepEqual(few, ["- a (0)", "- b (0) failed"]);
});
