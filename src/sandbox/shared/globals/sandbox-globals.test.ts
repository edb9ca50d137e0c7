import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { SANDBOX_GLOBALS_DECLARATION } from "../../../skills/sandbox-globals.ts";
import { PRELUDE_BUNDLE } from "../../isolate/prelude.generated.ts";
import { RUNNER_BUNDLE } from "../../process/runner.generated.ts";
import { PYTHON_RUNNER_BUNDLE } from "../../python/runner.generated.ts";
import {
  bundlePrelude,
  bundlePythonRunner,
  bundleRunner,
  README_END,
  README_START,
  sandboxGlobalsTable,
} from "./bundle.ts";
import { SANDBOX_GLOBALS } from "./catalog.ts";

const REBUILD = "stale: run `node --import tsx scripts/build-sandbox-globals.ts` and commit the result";

describe("the sandbox globals' one definition", () => {
  it("is what the committed prelude bundle was built from", async () => {
    assert.equal(PRELUDE_BUNDLE, await bundlePrelude(), `prelude.generated.ts is ${REBUILD}`);
  });

  it("is what the committed process runner bundle was built from", async () => {
    assert.equal(RUNNER_BUNDLE, await bundleRunner(), `runner.generated.ts is ${REBUILD}`);
    const modules = [...RUNNER_BUNDLE.matchAll(/^ {2}\/\/ (src\/\S+\.ts)$/gm)].map((match) => match[1]);
    assert.deepEqual([...new Set(modules)].sort(), [
      "src/sandbox/process/runner/main.ts",
      "src/sandbox/process/runner/stack-trace.ts",
    ]);
  });

  it("is what the committed Python runner bundle was built from", async () => {
    assert.equal(
      PYTHON_RUNNER_BUNDLE,
      await bundlePythonRunner(),
      `python/runner.generated.ts is ${REBUILD}`,
    );
    const modules = [...PYTHON_RUNNER_BUNDLE.matchAll(/^ {2}\/\/ (src\/\S+\.ts)$/gm)].map(
      (match) => match[1],
    );
    assert.deepEqual([...new Set(modules)].sort(), [
      "src/sandbox/python/runner/boot.ts",
      "src/sandbox/python/runner/main.ts",
      "src/sandbox/python/runner/reply-text.ts",
      "src/sandbox/python/runner/stdin-reader.ts",
    ]);
  });

  it("bundles into the prelude only code written for the sandbox", () => {
    const modules = [...PRELUDE_BUNDLE.matchAll(/^ {2}\/\/ (src\/\S+\.ts)$/gm)].map((match) => match[1]);
    assert.ok(modules.includes("src/sandbox/shared/prelude/tools.ts"), "the prelude's modules are bundled");
    assert.ok(modules.includes("src/catalog/close-matches.ts"), "the one did-you-mean ranking is bundled");
    for (const module of modules) {
      assert.match(
        module ?? "",
        /^src\/(sandbox\/shared\/(prelude|globals)\/[\w-]+|sandbox\/analysis\/[\w-]+|catalog\/close-matches)\.ts$/,
        "no host module in the sandbox",
      );
    }
    assert.doesNotMatch(PRELUDE_BUNDLE, /\brequire\(|\bimport\(|node:/, "nothing loaded at run time");
  });

  it("is what the README's table shows", () => {
    const readme = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8");
    const start = readme.indexOf(README_START);
    const end = readme.indexOf(README_END);
    assert.ok(start >= 0 && end > start, "README.md has the sandbox-globals markers");
    assert.equal(
      readme.slice(start + README_START.length, end).trim(),
      sandboxGlobalsTable(),
      `README.md's table is ${REBUILD}`,
    );
  });

  it("declares every global but `tools` (the catalog's) for skills, once", () => {
    for (const global of SANDBOX_GLOBALS) {
      if (global.name === "tools") continue;
      const declared = new RegExp(`declare (const|function|class) ${global.name}\\b`, "g");
      assert.equal(SANDBOX_GLOBALS_DECLARATION.match(declared)?.length, 1, global.name);
    }
  });
});
