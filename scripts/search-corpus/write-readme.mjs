// Writes data/search/corpus/README.md from index.json and skipped.json (called by collect-tools.mjs).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS_DIR } from "./corpus-common.mjs";

export function writeReadme(index, skipped) {
  writeFileSync(join(CORPUS_DIR, "README.md"), `# corpus (draft)\n\n${index.length} servers\n`);
}
