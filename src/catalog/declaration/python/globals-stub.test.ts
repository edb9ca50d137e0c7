import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { PYTHON_GLOBALS_STUB } from "./globals-stub.ts";

const DRIVER = new URL("../../../sandbox/python/driver/toolscript_driver/resources.py", import.meta.url);

test("the Python globals stub declares every public method the driver's resources and prompts define", () => {
  const source = readFileSync(DRIVER, "utf8");
  const defined = [...source.matchAll(/^class (\w+):|^ {4}async def (\w+)\(/gm)].map(
    (match) => match[1] ?? match[2],
  );
  let owner = "";
  for (const name of defined) {
    if (name === "Resources" || name === "Prompts") {
      owner = name;
      assert.match(PYTHON_GLOBALS_STUB, new RegExp(`^class ${name}:`, "m"));
      continue;
    }
    if (name?.startsWith("_")) continue;
    const block = PYTHON_GLOBALS_STUB.slice(PYTHON_GLOBALS_STUB.indexOf(`class ${owner}:`));
    assert.match(block, new RegExp(`async def ${name}\\(`), `${owner}.${name}`);
  }
  assert.match(PYTHON_GLOBALS_STUB, /^resources: Resources$/m);
  assert.match(PYTHON_GLOBALS_STUB, /^prompts: Prompts$/m);
});
