import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { splitStaticImports } from "./static-imports.ts";

describe("splitStaticImports", () => {
  it("finds leading imports and blanks them in place", () => {
    const source = [
      "#!/usr/bin/env tsx",
      "// notes",
      'import { a, b as c } from "skills/one";',
      "/* block */ import * as ns from 'skills/two'",
      'import type { T } from "types";',
      'import "side-effect" with { type: "json" };',
      "const x = a();",
    ].join("\n");
    const { imports, body } = splitStaticImports(source);
    assert.deepEqual(
      imports.map((found) => [found.specifier, found.typeOnly, found.line, found.column]),
      [
        ["skills/one", false, 3, 1],
        ["skills/two", false, 4, 13],
        ["types", true, 5, 1],
        ["side-effect", false, 6, 1],
      ],
    );
    assert.equal(imports[3]?.text, 'import "side-effect" with { type: "json" };');
    assert.equal(body.length, source.length);
    assert.deepEqual(
      body.split("\n").map((line) => line.trim()),
      ["#!/usr/bin/env tsx", "// notes", "", "/* block */", "", "", "const x = a();"],
    );
  });

  it("stops at the first statement and ignores dynamic import and import.meta", () => {
    for (const source of [
      "const a = 1;\nimport { b } from 'b';",
      "await import('x');",
      "import.meta.url",
      "import('x')",
    ]) {
      const { imports, body } = splitStaticImports(source);
      assert.deepEqual(imports, []);
      assert.equal(body, source);
    }
  });

  it("handles braces and quoted names inside the clause", () => {
    const { imports } = splitStaticImports(
      'import {\n  "odd-name" as odd,\n  x,\n} from "skills/three";\nodd()',
    );
    assert.equal(imports[0]?.specifier, "skills/three");
    assert.equal(imports[0]?.end, imports[0]?.text.length);
  });
});
