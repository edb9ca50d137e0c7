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

for (const [origin, fail] of [
  ["an uncaught exception", `setTimeout(() => { throw new Error("boom: exception"); }, 10);`],
  [
    "a rejected top-level await",
    `await new Promise((r) => setTimeout(r, 10)); throw new Error("boom: rejection");`,
  ],
] as const) {
  test(`${origin} is still printed before the exit, with code 1`, () => {
    const script = `
      import { exitWithoutIsolateTeardown } from ${JSON.stringify(MODULE)};
      exitWithoutIsolateTeardown();
      ${fail}
    `;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 30_000,
    });
    assert.equal(child.status, 1, child.stderr);
    assert.match(child.stderr, /Error: boom: (exception|rejection)\n\s+at /);
  });
}

test("an error an 'uncaughtException' listener handled is not printed at a later exit", () => {
  const script = `
    import { exitWithoutIsolateTeardown } from ${JSON.stringify(MODULE)};
    exitWithoutIsolateTeardown();
    process.on("uncaughtException", () => { process.exitCode = 4; });
    setTimeout(() => { throw new Error("handled boom"); }, 10);
  `;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 30_000,
  });
  assert.equal(child.status, 4, child.stderr);
  assert.doesNotMatch(child.stderr, /handled boom/);
});
