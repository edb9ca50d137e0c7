import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, test } from "node:test";
import { Catalog } from "../catalog/catalog.ts";
import { LexicalSearchIndex } from "../search/index.ts";
import type { SharedStore } from "../store/domains.ts";
import { SkillError } from "../store/skill-error.ts";
import { openMemorySharedStore } from "../store/sqlite-shared-store.ts";
import { SkillCheckError } from "./errors.ts";
import {
  declarePythonSkill,
  type PythonSkillValidator,
  pythonFunctions,
  pythonSkillImports,
} from "./python-skill.ts";
import { pythonModuleName, pythonModuleNames, pythonSkillSources } from "./python-skill-modules.ts";
import { renderSkillDeclaration, skillLabel } from "./skill-documents.ts";
import { SkillLibrary } from "./skill-library.ts";

const STATS = [
  '"""Statistics helpers.',
  "",
  "def not_a_function(): this is the module docstring",
  '"""',
  "import math",
  "from skills.helpers import clean",
  "",
  "@cache",
  "def mean(values: list[float]) -> float:",
  '    """Average of the values."""',
  "    return sum(values) / len(values)",
  "",
  "async def fetch_all(",
  "    names: list[str],  # which ones",
  "    limit: int = 10,",
  ") -> dict[str, str]:",
  "    '''Fetches every name.",
  "",
  "    Returns a dict by name.",
  "    '''",
  "    return {}",
  "",
  "def _private(x):",
  "    return x",
  "",
  "class Holder:",
  "    def method(self): ...",
].join("\n");

describe("reading a Python skill without Python", () => {
  test("public top-level functions with decorators, multi-line signatures and docstrings", () => {
    const functions = pythonFunctions(STATS);
    assert.deepEqual(
      functions.map((fn) => [fn.name, fn.line]),
      [
        ["mean", 9],
        ["fetch_all", 13],
      ],
    );
    assert.equal(
      functions[0]?.stub,
      [
        "@cache",
        "def mean(values: list[float]) -> float:",
        '    """Average of the values."""',
        "    ...",
      ].join("\n"),
    );
    assert.equal(
      functions[1]?.stub,
      [
        "async def fetch_all( names: list[str], limit: int = 10, ) -> dict[str, str]:",
        "    '''Fetches every name.",
        "",
        "    Returns a dict by name.",
        "    '''",
        "    ...",
      ].join("\n"),
    );
  });

  test("declaration, exports and skill imports", () => {
    const declared = declarePythonSkill("stats", STATS);
    // The declaration is itself valid Python (checked with the machine's python3, a test-only dependency).
    const parsed = spawnSync("python3", ["-c", "import ast, sys; ast.parse(sys.stdin.read())"], {
      input: declared.declaration,
      encoding: "utf8",
    });
    assert.equal(parsed.status, 0, parsed.stderr);
    assert.deepEqual(declared.exports, ["mean", "fetch_all"]);
    assert.deepEqual(declared.imports, [{ module: "helpers", line: 6 }]);
    assert.match(declared.declaration, /^def mean\(values: list\[float\]\) -> float:$/m);
    // A one-line body is left out of the header; the next definition is read on its own.
    assert.deepEqual(
      pythonFunctions("def inc(x): return x + 1\ndef dec(x: int) -> int:  # comment\n    return x - 1\n").map(
        (fn) => fn.stub,
      ),
      ["def inc(x):\n    ...", "def dec(x: int) -> int:\n    ..."],
    );
    assert.deepEqual(pythonSkillImports("import skills.a\nx = '''\nfrom skills.b import c\n'''\n"), [
      { module: "a", line: 1 },
    ]);
  });

  test("refusals name what is wrong: empty, too long, NUL, no function, TypeScript", () => {
    const refused = (code: string, pattern: RegExp) =>
      assert.throws(
        () => declarePythonSkill("s", code),
        (error: unknown) =>
          error instanceof SkillCheckError && error.code === "skill.syntax" && pattern.test(error.message),
      );
    refused("  \n", /the code is empty/);
    refused(`def f(): pass\n${"#".repeat(200_001)}`, /at most 200000 are accepted/);
    refused("def f():\n    return '\u0000'\n", /NUL character/);
    refused("x = 1\ndef _hidden(): pass\n", /no public top-level function/);
    refused("export function f(a: number) { return a; }", /looks like TypeScript/);
  });

  test("module names: `-` as `_`, keywords get `_`, Python skills keep theirs on a clash", () => {
    assert.equal(pythonModuleName("my-stats"), "my_stats");
    assert.equal(pythonModuleName("class"), "class_");
    const modules = pythonModuleNames([
      { name: "a-b", language: "python" },
      { name: "a_b", language: "typescript" },
      { name: "x", language: "typescript" },
    ]);
    assert.deepEqual([...modules].sort(), [
      ["a-b", "a_b"],
      ["a_b", "a_b_2"],
      ["x", "x"],
    ]);
  });
});

async function library(
  store: SharedStore,
  validatePythonSkill?: PythonSkillValidator,
): Promise<SkillLibrary> {
  const skills = new SkillLibrary({
    catalog: new Catalog([]),
    index: new LexicalSearchIndex(),
    validatePythonSkill,
  });
  await skills.attach(store);
  return skills;
}

const save = (skills: SkillLibrary, name: string, code: string, language?: "python") =>
  skills.save({ name, code, description: `The ${name} skill.`, language });

describe("Python skills in the library", () => {
  test("saved with language python: declaration from its defs, listed and described as Python", async () => {
    const store = openMemorySharedStore();
    const skills = await library(store);
    await save(skills, "helpers", "def clean(rows):\n    return rows\n", "python");
    const saved = await save(skills, "stats", STATS, "python");
    assert.equal(saved.language, "python");
    assert.deepEqual(saved.exports, ["mean", "fetch_all"]);
    assert.deepEqual(saved.imports, ["helpers"]);
    const stored = skills.get("stats");
    assert.ok(stored);
    assert.equal(skillLabel(stored), "skills/stats (python)");
    const shown = renderSkillDeclaration(stored);
    assert.match(shown, /^# skills\/stats \(version 1, shared, Python\)$/m);
    assert.match(shown, /^# from skills\.stats import mean, fetch_all$/m);
    assert.match(shown, /^# The stats skill\.$/m);
    assert.match(
      renderSkillDeclaration(stored, { language: "typescript" }),
      /TypeScript programs cannot import it/,
    );
    await store.close();
  });

  test("pythonSkillSources: Python skills by module; a TypeScript skill mounts as a clear ImportError", async () => {
    const store = openMemorySharedStore();
    const skills = await library(store);
    await save(skills, "my-stats", "def mean(v):\n    return sum(v) / len(v)\n", "python");
    await store.skills.save({
      name: "ts_only",
      code: "export const a = 1;",
      description: "d",
      declaration: "export declare const a = 1;",
    });
    await store.skills.save({
      name: "mine",
      code: "def f(): pass\n",
      description: "d",
      declaration: "def f(): pass\n",
      language: "python",
      session: "s1",
      visibility: "private",
    });
    // Saved through the store, not the library: it hears them from the store.
    await skills.settled();
    const shared = pythonSkillSources(skills);
    assert.deepEqual(Object.keys(shared).sort(), ["skills.my_stats", "skills.ts_only"]);
    assert.equal(shared["skills.my_stats"], "def mean(v):\n    return sum(v) / len(v)\n");
    assert.match(
      shared["skills.ts_only"] ?? "",
      /^raise ImportError\(".*skills\/ts_only is a TypeScript skill/,
    );
    assert.deepEqual(Object.keys(skills.pythonSources("s1")).sort(), [
      "skills.mine",
      "skills.my_stats",
      "skills.ts_only",
    ]);
    await store.close();
  });

  test("imports across languages are refused both ways, with the reason", async () => {
    const store = openMemorySharedStore();
    const skills = await library(store);
    await save(skills, "pyskill", "def f():\n    return 1\n", "python");
    await store.skills.save({
      name: "tsskill",
      code: "export const a = 1;",
      description: "d",
      declaration: "export declare const a = 1;",
    });
    await skills.settled();
    await assert.rejects(
      save(skills, "p2", "from skills.tsskill import a\n\ndef g():\n    return a\n", "python"),
      (error) => {
        assert.ok(error instanceof SkillCheckError);
        assert.equal(error.code, "skill.import");
        assert.equal(error.data.line, 1);
        assert.match(
          error.message,
          /skills\.tsskill is the TypeScript skill "tsskill": Python can import only Python skills/,
        );
        return true;
      },
    );
    await assert.rejects(
      save(skills, "p3", "import skills.nowhere\n\ndef g(): pass\n", "python"),
      /no Python skill is imported as skills\.nowhere \(skills\.pyskill\)/,
    );
    await assert.rejects(
      save(skills, "t2", 'import { f } from "skills/pyskill";\nexport const g = (): number => f();\n'),
      (error) => {
        assert.ok(error instanceof SkillCheckError);
        assert.equal(error.code, "skill.import");
        assert.match(
          error.message,
          /"skills\/pyskill", a Python skill: TypeScript can import only TypeScript skills/,
        );
        return true;
      },
    );
    // A TypeScript program's import: refused when the module is loaded, and left out of the type check.
    await assert.rejects(
      skills.load("pyskill", "s"),
      /skills\/pyskill is a Python skill: TypeScript programs cannot import it .*from skills\.pyskill import/,
    );
    assert.equal(skills.typeScriptDeclaration("pyskill"), undefined);
    assert.equal(skills.typeScriptDeclaration("tsskill"), "export declare const a = 1;");
    await store.close();
  });

  test("a Python skill whose module another Python skill has is refused", async () => {
    const store = openMemorySharedStore();
    const skills = await library(store);
    await save(skills, "my_stats", "def f(): pass\n", "python");
    await assert.rejects(save(skills, "my-stats", "def f(): pass\n", "python"), (error) => {
      assert.ok(error instanceof SkillError);
      assert.equal(error.code, "skill.name_taken");
      assert.match(
        error.message,
        /imported as skills\.my_stats, which is already the Python skill "my_stats"/,
      );
      return true;
    });
    await store.close();
  });

  test("the runtime's syntax check (validatePythonSkill seam) refuses with its message and line", async () => {
    const store = openMemorySharedStore();
    const seen: string[] = [];
    const skills = await library(store, async ({ name, code }) => {
      seen.push(name);
      return code.includes("return return") ? { message: "invalid syntax", line: 2 } : undefined;
    });
    await assert.rejects(save(skills, "broken", "def f():\n    return return\n", "python"), (error) => {
      assert.ok(error instanceof SkillCheckError);
      assert.equal(error.code, "skill.syntax");
      assert.equal(error.data.line, 2);
      assert.equal(error.message, 'Python skill "broken" (line 2): invalid syntax');
      return true;
    });
    assert.equal(skills.get("broken"), undefined, "nothing saved");
    await save(skills, "fine", "def f():\n    return 1\n", "python");
    assert.deepEqual(seen, ["broken", "fine"]);
    await store.close();
  });
});
