import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CatalogTool, ToolAnnotations } from "../../catalog/types.ts";
import { isWriteLike, nameSaysWrite, writeLikeByName } from "./write-like.ts";

function tool(name: string, annotations?: ToolAnnotations): CatalogTool {
  return {
    server: "s",
    tool: name,
    serverId: "s",
    toolId: name,
    path: `tools.s.${name}`,
    definition: { name, inputSchema: { type: "object" }, ...(annotations && { annotations }) },
  };
}

describe("write-like tools", () => {
  test("names: write verbs among the words, any case style", () => {
    for (const name of ["send_email", "createIssue", "files.upload", "git-push", "put_object", "deleteRow"])
      assert.equal(nameSaysWrite(name), true, name);
    for (const name of ["read_file", "list_issues", "get_settings", "search", "echo", "add", "rows"])
      assert.equal(nameSaysWrite(name), false, name);
  });

  test("annotations win over the name", () => {
    assert.equal(isWriteLike(tool("send_report", { readOnlyHint: true })), false);
    assert.equal(isWriteLike(tool("fetch", { readOnlyHint: false })), true);
    assert.equal(isWriteLike(tool("purge", { destructiveHint: true })), true);
    assert.equal(isWriteLike(tool("post_message")), true);
  });

  test("by name through the catalog, cached until it changes", () => {
    let tools = [tool("publish", { readOnlyHint: true })];
    const directory = { version: 1, server: (name: string) => (name === "s" ? { tools } : undefined) };
    const writeLike = writeLikeByName(directory);
    assert.equal(writeLike("s", "publish"), false);
    tools = [tool("publish")];
    assert.equal(writeLike("s", "publish"), false, "cached");
    directory.version = 2;
    assert.equal(writeLike("s", "publish"), true);
    assert.equal(writeLike("gone", "upload_file"), true, "unknown tools by their name");
  });
});
