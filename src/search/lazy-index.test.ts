import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import type { ToolDefinition } from "../catalog/types.ts";
import { toolDocument } from "./documents.ts";
import { LazySearchIndex } from "./lazy-index.ts";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { MemorySearchIndex } from "./memory-index.ts";
import { toolDoc } from "./tool-doc.fixture.ts";
import type { SearchDocument, SearchIndex } from "./types.ts";

const fixture = JSON.parse(
  readFileSync(new URL("../../test/fixtures/catalog.json", import.meta.url), "utf8"),
) as { tools: (ToolDefinition & { server: string })[] };
const byServer = new Map<string, SearchDocument[]>();
for (const tool of fixture.tools) {
  byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), toolDocument(tool.server, tool)]);
}
const servers = [...byServer.keys()];

/** What a gateway does to its index: servers connect, change their lists, leave; skills come and go. */
function operate(index: SearchIndex): void {
  for (const server of servers) index.replaceServer(server, byServer.get(server) ?? []);
  const [first, second, third] = servers;
  index.replaceServer(first as string, (byServer.get(first as string) ?? []).slice(1));
  index.add((byServer.get(second as string) ?? []).slice(0, 2));
  index.removeServer(third as string);
  index.add([
    {
      id: "skill:list-open-issues",
      kind: "skill",
      name: "list-open-issues",
      description: "open issues",
      params: [],
    },
  ]);
  index.remove([(byServer.get(second as string) ?? [])[3]?.id ?? ""]);
}

describe("LazySearchIndex", () => {
  it("builds nothing until the first search, and answers get and size before", () => {
    let builds = 0;
    const index = new LazySearchIndex(() => {
      builds++;
      return new MemorySearchIndex();
    });
    index.add([toolDoc("read_file", "Read a file"), toolDoc("write_file", "Write a file")]);
    index.replaceServer("t", [toolDoc("delete_file", "Delete a file", { server: "other" })]);
    index.remove(["s/write_file"]);
    assert.equal(builds, 0);
    assert.equal(index.built, false);
    assert.equal(index.size, 2);
    assert.equal(index.get("s/read_file")?.name, "read_file");
    assert.equal(
      index.get("other/delete_file")?.server,
      "t",
      "replaceServer files documents under its server",
    );
    assert.deepEqual(
      index.search("file").map((hit) => hit.id),
      ["s/read_file", "other/delete_file"],
    );
    assert.equal(builds, 1);
    index.add([toolDoc("copy_file", "Copy a file")]);
    index.search("copy");
    assert.equal(builds, 1);
    assert.equal(index.get("s/copy_file")?.name, "copy_file");
  });

  it("ranks exactly as a lexical index that was fed the same changes all along", () => {
    const eager = new LexicalSearchIndex();
    const lazy = new LazySearchIndex(() => new LexicalSearchIndex());
    operate(eager);
    operate(lazy);
    assert.equal(lazy.size, eager.size);
    for (const query of [
      "read a text file",
      "create an issue",
      "take a screenshot",
      "query the database",
      "open",
    ]) {
      assert.deepEqual(lazy.search(query, { limit: 15 }), eager.search(query, { limit: 15 }), query);
    }
  });
});
