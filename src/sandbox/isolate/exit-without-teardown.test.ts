import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";

const MODULE = new URL("./exit-without-teardown.ts", import.meta.url).href;

test("a natural end becomes process.exit with the same code, after the 'exit' listeners added later", () => {
  const script = `
    import { exitWithoutIsolateTeardown } from ${JSON.stringify(MODULE)};
    exitWithoutIsolateTeardown();
    process.on("exit", (code) => process.stderr.write("later listener saw " + code + "\\n"));
    process.exitCode = 3;
    setTimeout(() => process.stderr.write("loop ran dry\\n"), 10);
  `;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 30_000,
  });
  assert.equal(child.status, 3, child.stderr);
  assert.match(child.stderr, /loop ran dry\nlater listener saw 3\n/);
  assert.equal(child.stderr.match(/later listener/g)?.length, 1, "each listener runs once");
});
