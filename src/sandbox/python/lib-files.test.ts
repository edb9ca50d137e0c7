import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import * as analysis from "../analysis/index.ts";
import { pythonLibFiles } from "./lib-files.ts";
import { readPythonLib } from "./lib-source.ts";

describe("the Python library shipped to the runtime (pythonLibFiles)", () => {
  it("is what python/lib/ holds (lib-files.generated.ts is not stale)", () => {
    assert.deepEqual(
      pythonLibFiles(),
      readPythonLib(),
      "stale: run `node --import tsx scripts/build-sandbox-globals.ts` and commit the result",
    );
  });

  it("lays out the package toolscript with relative paths", () => {
    const paths = pythonLibFiles().map((file) => file.path);
    assert.ok(paths.includes("toolscript/__init__.py"));
    assert.ok(paths.includes("toolscript/analysis.py"));
    for (const path of paths) assert.match(path, /^[a-z_]+(\/[a-z_]+)*\.py$/);
  });

  it("imports and runs from a directory on sys.path, standard library only (python3 -I)", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolscript-pylib-"));
    try {
      for (const file of pythonLibFiles()) {
        mkdirSync(dirname(join(dir, file.path)), { recursive: true });
        writeFileSync(join(dir, file.path), file.source);
      }
      const program = [
        "import sys",
        `sys.path.insert(0, ${JSON.stringify(dir)})`,
        "import json, toolscript.analysis",
        "from toolscript.analysis import aggregate, AnalysisError",
        "print(json.dumps(sorted(toolscript.analysis.__all__)))",
        'print(aggregate([{"g": "a", "v": 1}, {"g": "a", "v": 3}], "g", {"m": {"op": "mean", "field": "v"}}))',
        "try:",
        '    aggregate([], None, {"m": {"op": "avg"}})',
        "except ValueError as error:",
        "    print(type(error).__name__, error.path)",
      ].join("\n");
      // -I: isolated from the user's site-packages and environment, as in the sandbox.
      const child = spawnSync("python3", ["-I", "-B", "-c", program], { encoding: "utf8" });
      assert.equal(child.status, 0, child.stderr);
      const [names, ...rest] = child.stdout.split("\n");
      assert.deepEqual(
        JSON.parse(names ?? ""),
        Object.keys(analysis).sort(),
        "the same names as in TypeScript",
      );
      assert.equal(rest.join("\n"), "[{'g': 'a', 'm': 2.0}]\nAnalysisError metrics.m.op\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
