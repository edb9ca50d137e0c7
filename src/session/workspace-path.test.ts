import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { WorkspaceError } from "./errors.ts";
import { normalizeWorkspacePath, normalizeWorkspacePrefix } from "./workspace-path.ts";

function refused(path: unknown, reason: RegExp) {
  assert.throws(
    () => normalizeWorkspacePath(path),
    (error: unknown) =>
      error instanceof WorkspaceError &&
      error.code === "workspace.bad_path" &&
      reason.test(error.message) &&
      error.message.startsWith("invalid workspace path"),
    `${JSON.stringify(path)} should be refused with ${reason}`,
  );
}

describe("normalizeWorkspacePath", () => {
  it("keeps plain relative paths and normalises harmless forms", () => {
    assert.equal(normalizeWorkspacePath("notes.json"), "notes.json");
    assert.equal(normalizeWorkspacePath("a/b/c.txt"), "a/b/c.txt");
    assert.equal(normalizeWorkspacePath("./a/./b.txt"), "a/b.txt");
    assert.equal(normalizeWorkspacePath(".hidden/..x"), ".hidden/..x", "dots inside names are fine");
    // NFD "é" (e + combining acute) and NFC "é" name the same file.
    assert.equal(normalizeWorkspacePath("caf\u0065\u0301.txt"), "caf\u00e9.txt");
    assert.equal(normalizeWorkspacePath("名前/データ.csv"), "名前/データ.csv");
  });

  it("refuses traversal, absolute, drive and backslash paths", () => {
    refused("..", /"\.\." segments/);
    refused("../secret", /"\.\." segments/);
    refused("a/../../b", /"\.\." segments/);
    refused("a/..", /"\.\." segments/);
    refused("/etc/passwd", /absolute/);
    refused("C:/Windows", /drive-letter/);
    refused("c:x", /drive-letter/);
    refused("..\\x", /"\\" is not allowed/);
    refused("a\\b", /"\\" is not allowed/);
  });

  it("refuses NUL, control characters, empty segments and the root itself", () => {
    refused("a\0.txt", /control characters/);
    refused("a\n.txt", /control characters/);
    refused("a\u007f", /control characters/);
    refused("", /empty/);
    refused("a//b", /empty segments/);
    refused("a/", /empty segments/);
    refused(".", /workspace itself/);
    refused("./.", /workspace itself/);
    refused(42, /must be a string/);
    refused(undefined, /must be a string/);
  });

  it("refuses over-long segments, paths and depth", () => {
    assert.equal(normalizeWorkspacePath("x".repeat(255)).length, 255);
    refused("x".repeat(256), /longer than 255 bytes/);
    refused("é".repeat(128), /longer than 255 bytes/);
    refused(Array(5).fill("y".repeat(250)).join("/"), /longer than 1024 bytes/);
    refused(Array(33).fill("d").join("/"), /more than 32 nested/);
  });

  it("shortens huge paths in the message but keeps the full path in data", () => {
    const path = `../${"z".repeat(5000)}`;
    try {
      normalizeWorkspacePath(path);
      assert.fail("should throw");
    } catch (error) {
      assert.ok(error instanceof WorkspaceError);
      assert.ok(error.message.length < 400);
      assert.equal(error.data.path, path);
    }
  });
});

describe("normalizeWorkspacePrefix", () => {
  it("takes the root and folders with or without a trailing slash", () => {
    assert.equal(normalizeWorkspacePrefix(undefined), "");
    assert.equal(normalizeWorkspacePrefix(""), "");
    assert.equal(normalizeWorkspacePrefix("."), "");
    assert.equal(normalizeWorkspacePrefix("a/b/"), "a/b");
    assert.equal(normalizeWorkspacePrefix("./a"), "a");
    assert.throws(() => normalizeWorkspacePrefix("/"), /absolute/);
    assert.throws(() => normalizeWorkspacePrefix("../"), /"\.\." segments/);
  });
});
