#!/usr/bin/env node
// The CLI entry: the only place that calls process.exit.
import { existsSync } from "node:fs";

const entry = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write("toolscript: dist/ is missing; run `npm run build` (npm ci runs it for you)\n");
  process.exit(1);
}
const { main, exitProcess } = await import(entry.href);
const code = await main(process.argv.slice(2));
// serve keeps running on its own handles; everything else ends here.
exitProcess(code);
