import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { skillEntry } from "@modelcontextprotocol/server/ext/skills";
import type { SkillVersion } from "../store/types.ts";
import { MAX_FRONTMATTER_DESCRIPTION, mcpSkillFolder, SKILL_MANIFEST } from "./mcp-skill-folder.ts";

function skill(overrides: Partial<SkillVersion>): SkillVersion {
  return {
    name: "doubleIt",
    version: 3,
    code: "export function double(n: number): number {\n  return n * 2;\n}",
    description: "Doubles a number.",
    declaration: "export declare function double(n: number): number;\n",
    language: "typescript",
    authorSession: null,
    visibility: "shared",
    ownerSession: null,
    createdAt: 0,
    origin: null,
    ...overrides,
  };
}

describe("mcpSkillFolder", () => {
  test("lays a skill out as SKILL.md, scripts/ and references/", () => {
    const folder = mcpSkillFolder(skill({}), "double-it");
    assert.deepEqual(Object.keys(folder.files).sort(), [
      SKILL_MANIFEST,
      "references/index.d.ts",
      "scripts/index.ts",
    ]);
    assert.equal(folder.files["scripts/index.ts"], `${skill({}).code}\n`);
    assert.match(folder.files[SKILL_MANIFEST] ?? "", /^---\nname: "double-it"\n/);
    assert.match(folder.files[SKILL_MANIFEST] ?? "", /import \{ double \} from "skills\/doubleIt";/);
    const python = mcpSkillFolder(
      skill({ name: "shout_it", language: "python", code: "def shout(t: str) -> str:\n    return t\n" }),
      "shout-it",
    );
    assert.deepEqual(Object.keys(python.files).sort(), [
      SKILL_MANIFEST,
      "references/index.pyi",
      "scripts/index.py",
    ]);
  });

  test("the SDK reads back exactly the description, whatever characters it holds", async () => {
    const description =
      'Says "hi": a\ttab, a colon: # not a comment\n\n- not a list\u2028line sep, \u00e9, \u{1F600}, \\ and \ud800 lone';
    const folder = mcpSkillFolder(skill({ description }), "double-it");
    // skillEntry parses SKILL.md with the SDK's frontmatter reader and checks the Agent Skills rules.
    const entry = await skillEntry("double-it", folder.files);
    assert.equal(entry.frontmatter.description, description.replace("\ud800", "\ufffd"));
    assert.equal(entry.frontmatter.name, "double-it");
    assert.deepEqual(entry.frontmatter.metadata, {
      "toolscript-name": "doubleIt",
      "toolscript-language": "typescript",
      "toolscript-version": "3",
      "toolscript-visibility": "shared",
    });
  });

  test("cuts a long description to the Agent Skills limit and keeps it whole in the body", async () => {
    const description = `${"word ".repeat(400)}end`;
    const folder = mcpSkillFolder(skill({ description }), "double-it");
    assert.ok(Array.from(folder.description).length <= MAX_FRONTMATTER_DESCRIPTION);
    assert.ok(folder.description.endsWith("…"));
    const entry = await skillEntry("double-it", folder.files);
    assert.equal(entry.frontmatter.description, folder.description);
    assert.ok(folder.files[SKILL_MANIFEST]?.includes(description));
  });
});
