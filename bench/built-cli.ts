// The benchmarks that start the CLI run the built one (dist/), as users do:
// tsx would add its own compiler to the figures.
import { existsSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { newestSourceMtime } from "../test/helpers/source-mtime.ts";
import { progress } from "./table.ts";

export const BIN = fileURLToPath(new URL("../bin/toolscript.js", import.meta.url));
const DIST_ENTRY = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const SRC = fileURLToPath(new URL("../src", import.meta.url));

/** bin/toolscript.js, after checking dist/ exists; says so when src/ changed after the build. */
export function builtCli(): string {
  if (!existsSync(DIST_ENTRY)) throw new Error("dist/ is missing: run `npm run build` first");
  if (newestSourceMtime(SRC) > statSync(DIST_ENTRY).mtimeMs)
    progress("warning: src/ changed after the last build; run `npm run build` for figures of this source");
  return BIN;
}
