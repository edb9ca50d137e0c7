/**
 * Builds the sandbox's globals from their one definition (src/sandbox/shared/globals/):
 * the bundled script spliced into the prelude, and the README's table.
 * Run: node --import tsx scripts/build-sandbox-globals.ts
 */
import { readFileSync, writeFileSync } from "node:fs";
import {
  bundleSandboxGlobals,
  generatedModule,
  withSandboxGlobalsTable,
} from "../src/sandbox/shared/globals/bundle.ts";

const root = new URL("..", import.meta.url);
const generated = new URL("src/sandbox/isolate/sandbox-globals.generated.ts", root);
const readme = new URL("README.md", root);

writeFileSync(generated, generatedModule(await bundleSandboxGlobals()));
writeFileSync(readme, withSandboxGlobalsTable(readFileSync(readme, "utf8")));
process.stderr.write(`wrote ${generated.pathname} and the table in ${readme.pathname}\n`);
