#!/usr/bin/env node
// Finds every *.test.ts under src/ and test/ and runs them with node's test
// runner through tsx. (Node 20's `--test` does not expand globs itself.)
// A test that hangs fails after 3 minutes instead of stalling the run.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const filter = process.argv.slice(2);

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : find(path);
    return entry.name.endsWith(".test.ts") ? [relative(root, path)] : [];
  });
}

const files = ["src", "test"]
  .flatMap((dir) => find(join(root, dir)))
  .filter((file) => filter.length === 0 || filter.some((word) => file.includes(word)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filter.join(" ")}`);
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-concurrency=2", "--test-timeout=180000", ...files],
  {
    cwd: root,
    stdio: "inherit",
  },
);
process.exit(result.status ?? 1);
