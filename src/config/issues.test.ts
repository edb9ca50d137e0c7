import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatIssues, formatPath } from "./issues.ts";
import { suggestKey } from "./suggest.ts";

describe("formatPath", () => {
  it("dots plain keys and brackets indexes", () => {
    assert.equal(formatPath(["mcpServers", "github", "args", 0]), "mcpServers.github.args[0]");
    assert.equal(formatPath(["mcpServers", "my-server", "command"]), "mcpServers.my-server.command");
  });

  it("quotes keys that would be ambiguous after a dot", () => {
    assert.equal(formatPath(["mcpServers", "github.com", "url"]), 'mcpServers["github.com"].url');
    assert.equal(formatPath(["mcpServers", ""]), 'mcpServers[""]');
    assert.equal(formatPath(["headers", "X Api Key"]), 'headers["X Api Key"]');
    assert.equal(formatPath([]), "");
  });
});

describe("formatIssues", () => {
  it("prints one issue per line, labelling the document itself", () => {
    const text = formatIssues([
      { path: "mcpServers.github.command", message: "expected string, received number" },
      { path: "", message: "expected object, received array" },
    ]);
    assert.equal(
      text,
      "mcpServers.github.command: expected string, received number\n(root): expected object, received array",
    );
  });
});

describe("suggestKey", () => {
  it("finds case slips and small typos, nothing for unrelated keys", () => {
    assert.equal(suggestKey("timeoutMS", ["timeoutMs", "memoryMb"]), "timeoutMs");
    assert.equal(suggestKey("comand", ["command", "args"]), "command");
    assert.equal(suggestKey("globalShortcut", ["mcpServers", "toolscript"]), undefined);
  });
});
