/**
 * Builds what runs inside a sandbox from its typed TypeScript: the prelude
 * (src/sandbox/shared/prelude/ with the globals of src/sandbox/shared/globals/)
 * bundled into one script, the process tier's runner (src/sandbox/process/runner/)
 * likewise, the Python runner (src/sandbox/python/runner/) too, and the README's table of sandbox globals.
 * Run: node --import tsx scripts/build-sandbox-globals.ts
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { pythonLibModule, readPythonLib } from "../src/sandbox/python/lib-source.ts";
import {
  bundlePrelude,
  bundlePythonRunner,
  bundleRunner,
  generatedModule,
  generatedPythonRunnerModule,
  generatedRunnerModule,
  withSandboxGlobalsTable,
} from "../src/sandbox/shared/globals/bundle.ts";

const root = new URL("..", import.meta.url);
const generated = new URL("src/sandbox/isolate/prelude.generated.ts", root);
const runner = new URL("src/sandbox/process/runner.generated.ts", root);
const pythonRunner = new URL("src/sandbox/python/runner.generated.ts", root);
const readme = new URL("README.md", root);
const pythonLib = new URL("src/sandbox/python/lib-files.generated.ts", root);

writeFileSync(generated, generatedModule(await bundlePrelude()));
writeFileSync(runner, generatedRunnerModule(await bundleRunner()));
writeFileSync(pythonRunner, generatedPythonRunnerModule(await bundlePythonRunner()));
writeFileSync(readme, withSandboxGlobalsTable(readFileSync(readme, "utf8")));
writeFileSync(pythonLib, pythonLibModule(readPythonLib()));
// Formatted as biome would, so `biome check .` stays clean (the test compares the string, not the layout).
const outputs = [generated, runner, pythonRunner, pythonLib].map((url) => url.pathname);
execFileSync("npx", ["biome", "format", "--write", ...outputs], { stdio: "ignore" });
process.stderr.write(`wrote ${outputs.join(", ")} and the table in ${readme.pathname}\n`);
