import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Catalog } from "../catalog/catalog.ts";
import type { CatalogTool, ToolDefinition } from "../catalog/types.ts";
import { compileGlob } from "./glob.ts";
import { Policy, type PolicySettings } from "./policy.ts";

const DEFAULTS: PolicySettings = {
  allow: ["*/*"],
  deny: [],
  approve: [],
  readOnly: false,
  unannotated: "approve",
  approveDestructive: false,
};

function tools(): Record<string, CatalogTool> {
  const catalog = new Catalog(["github", "my-fs"]);
  const object = { type: "object" };
  const defs: ToolDefinition[] = [
    { name: "delete_repo", inputSchema: object, annotations: { destructiveHint: true, readOnlyHint: false } },
    { name: "get_issue", inputSchema: object, annotations: { readOnlyHint: true } },
    { name: "create_issue", inputSchema: object },
  ];
  catalog.setServerTools("github", defs);
  catalog.setServerTools("my-fs", [
    { name: "write-file", inputSchema: object, annotations: { readOnlyHint: false } },
    { name: "read-file", inputSchema: object, annotations: { readOnlyHint: true } },
  ]);
  return Object.fromEntries(catalog.tools().map((tool) => [`${tool.server}/${tool.tool}`, tool]));
}

const all = tools();
const decide = (settings: Partial<PolicySettings>, name: string) =>
  new Policy({ ...DEFAULTS, ...settings }).decide(all[name]!).action;

describe("compileGlob", () => {
  test("star stays within a part; a bare server name means all its tools", () => {
    assert.ok(compileGlob("github/delete_*").test("github/delete_repo"));
    assert.ok(!compileGlob("github/delete_*").test("github/get_issue"));
    assert.ok(compileGlob("*/write_*").test("fs/write_file"));
    assert.ok(!compileGlob("*").test("a/b/c"));
    assert.ok(compileGlob("github").test("github/anything"));
    assert.ok(compileGlob("**").test("a/b/c"));
    assert.ok(compileGlob("my.server/x?").test("my.server/x1"));
    assert.ok(!compileGlob("my.server/x").test("myXserver/x"), "dots are literal");
  });
});

describe("Policy", () => {
  test("everything is allowed by default", () => {
    for (const name of Object.keys(all)) assert.equal(decide({}, name), "allow", name);
  });
  test("deny wins over allow and approve; allow is a whitelist", () => {
    assert.equal(decide({ deny: ["github/delete_*"], approve: ["github/*"] }, "github/delete_repo"), "deny");
    assert.equal(decide({ allow: ["github/get_*"] }, "github/create_issue"), "deny");
    assert.equal(decide({ allow: ["github/get_*"] }, "github/get_issue"), "allow");
  });
  test("patterns match original names and identifiers", () => {
    assert.equal(decide({ deny: ["my-fs/write-file"] }, "my-fs/write-file"), "deny");
    assert.equal(decide({ deny: ["my_fs/write_file"] }, "my-fs/write-file"), "deny");
  });
  test("read-only mode refuses writers and asks about unannotated tools", () => {
    assert.equal(decide({ readOnly: true }, "github/delete_repo"), "deny");
    assert.equal(decide({ readOnly: true }, "my-fs/write-file"), "deny");
    assert.equal(decide({ readOnly: true }, "github/get_issue"), "allow");
    assert.equal(decide({ readOnly: true }, "github/create_issue"), "approve");
    assert.equal(decide({ readOnly: true, unannotated: "deny" }, "github/create_issue"), "deny");
    assert.equal(decide({ readOnly: true, unannotated: "allow" }, "github/create_issue"), "allow");
  });
  test("approval by pattern and for destructive tools", () => {
    assert.equal(decide({ approve: ["*/write*"] }, "my-fs/write-file"), "approve");
    assert.equal(decide({ approveDestructive: true }, "github/delete_repo"), "approve");
    assert.equal(decide({ approveDestructive: true }, "github/get_issue"), "allow");
  });
  test("reasons name the tool and the rule", () => {
    const policy = new Policy({ ...DEFAULTS, deny: ["github/delete_*"] });
    assert.equal(
      policy.decide(all["github/delete_repo"]!).reason,
      "github/delete_repo is denied by policy.deny",
    );
  });
});
