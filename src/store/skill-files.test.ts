import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../../test/helpers/servers.ts";
import { SkillError } from "./skill-error.ts";
import { exportSkills, importSkills, readSkillFolders } from "./skill-files.ts";
import { parseSkillMarkdown, renderSkillMarkdown } from "./skill-markdown.ts";
import { openMemorySharedStore } from "./sqlite-shared-store.ts";

const DESCRIPTION = 'Summarizes text: "quoted", with: colons.\n\nSecond paragraph.';

describe("skill files", () => {
  it("renders SKILL.md with front matter and reads it back", () => {
    const text = renderSkillMarkdown("summarize", DESCRIPTION);
    assert.equal(
      text,
      '---\nname: "summarize"\ndescription: "Summarizes text: \\"quoted\\", with: colons."\n---\n\nSummarizes text: "quoted", with: colons.\n\nSecond paragraph.\n',
    );
    assert.deepEqual(parseSkillMarkdown(text), {
      fields: { name: "summarize", description: 'Summarizes text: "quoted", with: colons.' },
      body: DESCRIPTION,
    });
    assert.deepEqual(parseSkillMarkdown("---\nname: plain\ndescription: 'it''s'\n---\n"), {
      fields: { name: "plain", description: "it's" },
      body: "",
    });
    assert.deepEqual(parseSkillMarkdown("just text"), { fields: {}, body: "just text" });
  });

  it("exports shared skills as folders and imports them into another store as new versions", async () => {
    const dir = tempDir("skills-export");
    try {
      const source = openMemorySharedStore();
      await source.skills.save({
        name: "summarize",
        code: "export const a = 1;",
        description: "old",
        declaration: "x",
      });
      await source.skills.save({
        name: "summarize",
        code: "export const a = 2;",
        description: DESCRIPTION,
        declaration: "export declare const a: 2;",
        session: "s1",
      });
      await source.skills.save({
        name: "secret",
        code: "export const s = 1;",
        description: "private",
        declaration: "",
        session: "s1",
        visibility: "private",
      });
      const written = await exportSkills(source.skills, dir.path);
      assert.deepEqual(written, [join(dir.path, "summarize")], "private skills are not exported by default");
      assert.equal(readFileSync(join(dir.path, "summarize/index.ts"), "utf8"), "export const a = 2;\n");
      const metadata = JSON.parse(readFileSync(join(dir.path, "summarize/skill.json"), "utf8"));
      assert.equal(metadata.version, 2);
      assert.equal(metadata.authorSession, "s1");
      await source.close();

      const [read] = readSkillFolders(dir.path);
      assert.deepEqual(
        { ...read, dir: undefined },
        {
          name: "summarize",
          code: "export const a = 2;\n",
          description: DESCRIPTION,
          declaration: "export declare const a: 2;",
          language: "typescript",
          version: 2,
          visibility: "shared",
          dir: undefined,
        },
      );

      const target = openMemorySharedStore();
      await target.skills.save({ name: "summarize", code: "local", description: "local", declaration: "" });
      const imported = await importSkills(target.skills, dir.path, {
        declare: (s) => `derived from ${s.code.trim()}`,
      });
      assert.deepEqual(
        imported.map((s) => [s.name, s.version, s.declaration]),
        [["summarize", 2, "derived from export const a = 2;"]],
      );
      assert.equal(
        (await target.skills.get("summarize", { version: 1 }))?.code,
        "local",
        "the local version stays readable",
      );
      await target.close();
    } finally {
      dir.remove();
    }
  });

  it("a Python skill exports as index.py with index.pyi and imports back as Python", async () => {
    const dir = tempDir("skills-python");
    try {
      const source = openMemorySharedStore();
      await source.skills.save({
        name: "py-stats",
        code: "def mean(v):\n    return sum(v) / len(v)\n",
        description: "Mean.",
        declaration: "def mean(v): ...\n",
        language: "python",
      });
      await exportSkills(source.skills, dir.path);
      await source.close();
      assert.equal(
        readFileSync(join(dir.path, "py-stats/index.py"), "utf8"),
        "def mean(v):\n    return sum(v) / len(v)\n",
      );
      assert.equal(readFileSync(join(dir.path, "py-stats/index.pyi"), "utf8"), "def mean(v): ...\n");
      assert.equal(
        JSON.parse(readFileSync(join(dir.path, "py-stats/skill.json"), "utf8")).language,
        "python",
      );
      const [read] = readSkillFolders(dir.path);
      assert.equal(read?.language, "python");
      assert.equal(read?.declaration, "def mean(v): ...\n");
      const target = openMemorySharedStore();
      const [imported] = await importSkills(target.skills, dir.path, {
        declare: (s) => `declared ${s.language}`,
      });
      assert.equal(imported?.language, "python");
      assert.equal(imported?.declaration, "declared python");
      await target.close();
      writeFileSync(join(dir.path, "py-stats/index.ts"), "export const a = 1;");
      assert.throws(() => readSkillFolders(dir.path), /holds both index\.ts and index\.py/);
    } finally {
      dir.remove();
    }
  });

  it("refuses the whole import when one skill fails to declare", async () => {
    const dir = tempDir("skills-broken");
    try {
      for (const name of ["good", "bad"]) {
        mkdirSync(join(dir.path, name));
        writeFileSync(join(dir.path, name, "index.ts"), `export const ${name} = 1;`);
        writeFileSync(join(dir.path, name, "SKILL.md"), `${name} skill`);
      }
      const store = openMemorySharedStore();
      await assert.rejects(
        importSkills(store.skills, dir.path, {
          declare: (s) => {
            if (s.name === "bad") throw new Error("bad: does not compile");
            return "";
          },
        }),
        /does not compile/,
      );
      assert.deepEqual(await store.skills.list(), []);
      await store.close();
    } finally {
      dir.remove();
    }
  });

  it("refuses the whole import when a name is another session's private skill: nothing is saved", async () => {
    const dir = tempDir("skills-taken");
    try {
      for (const name of ["first", "taken"]) {
        mkdirSync(join(dir.path, name));
        writeFileSync(join(dir.path, name, "index.ts"), `export const ${name} = 1;`);
        writeFileSync(join(dir.path, name, "SKILL.md"), `${name} skill`);
      }
      const store = openMemorySharedStore();
      await store.skills.save({
        name: "taken",
        code: "export const mine = 1;",
        description: "mine",
        declaration: "",
        session: "s1",
        visibility: "private",
      });
      await assert.rejects(
        importSkills(store.skills, dir.path, { declare: () => "" }),
        (error: unknown) =>
          error instanceof SkillError &&
          error.code === "skill.name_taken" &&
          /session "s1"/.test(error.message),
      );
      assert.deepEqual(
        (await store.skills.list({ includePrivate: true })).map((skill) => [skill.name, skill.version]),
        [["taken", 1]],
      );
      await store.close();
    } finally {
      dir.remove();
    }
  });

  it("names the file of a malformed export", () => {
    const dir = tempDir("skills-bad");
    try {
      const folder = join(dir.path, "nodesc");
      mkdirSync(folder);
      writeFileSync(join(folder, "index.ts"), "export const a = 1;");
      assert.throws(
        () => readSkillFolders(dir.path),
        (error: unknown) =>
          error instanceof SkillError &&
          error.code === "skill.bad_export" &&
          error.data.path === join(folder, "SKILL.md"),
      );
      writeFileSync(join(folder, "SKILL.md"), "---\nname: other\n---\nText");
      assert.throws(() => readSkillFolders(dir.path), /names it "other"/);
      writeFileSync(join(folder, "SKILL.md"), "Text");
      writeFileSync(join(folder, "skill.json"), "{");
      assert.throws(() => readSkillFolders(dir.path), /skill\.json is not valid JSON/);
      assert.throws(() => readSkillFolders(join(dir.path, "missing")), /no skills folder/);
      // Folders without index.ts are not skills; a bad folder name is refused.
      mkdirSync(join(dir.path, "notes"));
      mkdirSync(join(dir.path, "bad.name"));
      writeFileSync(join(dir.path, "bad.name", "index.ts"), "");
      writeFileSync(join(folder, "skill.json"), "{}");
      assert.throws(() => readSkillFolders(dir.path), /invalid skill name "bad.name"/);
    } finally {
      dir.remove();
    }
  });
});
