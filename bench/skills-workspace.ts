import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Gateway } from "../src/gateway/gateway.ts";
import { ms, percentile, printTable, progress } from "./table.ts";

const SMALL_FILES = 1_000;
const BIG_FILE_BYTES = 10 * 1024 * 1024;
const IMPORT_RUNS = 20;

async function timed(
  gateway: Gateway,
  code: string,
  session: string,
): Promise<{ ms: number; result: unknown }> {
  const started = performance.now();
  const response = await gateway.execute({ code, session, maxTokens: 50_000 });
  const elapsed = performance.now() - started;
  if (response.error) throw new Error(`bench program failed: ${response.error.message}`);
  return { ms: elapsed, result: response.result };
}

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** Workspace reads and writes from code, and what importing a skill costs, on a fresh store. */
export async function benchSkillsWorkspace(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "toolscript-bench-skills-"));
  const gateway = new Gateway({ config: { mcpServers: {}, toolscript: { storage: { dir } } } });
  await gateway.start();
  try {
    progress("workspace: 1,000 small files");
    await timed(gateway, "1", "warmup");
    const write = await timed(
      gateway,
      `for (let i = 0; i < ${SMALL_FILES}; i++) await workspace.writeFile("small/f" + i + ".json", JSON.stringify({ i, text: "row " + i }));`,
      "bench",
    );
    const read = await timed(
      gateway,
      `let n = 0;\nfor (let i = 0; i < ${SMALL_FILES}; i++) n += JSON.parse(await workspace.readFile("small/f" + i + ".json")).i;\nn`,
      "bench",
    );
    const list = await timed(gateway, '(await workspace.list("small")).length', "bench");
    progress("workspace: one 10 MB file");
    const writeBig = await timed(
      gateway,
      `const b = new Uint8Array(${BIG_FILE_BYTES});\nfor (let i = 0; i < b.length; i += 4096) b[i] = i & 255;\nawait workspace.writeFile("big.bin", b);`,
      "bench",
    );
    const readBig = await timed(
      gateway,
      'const b = await workspace.readFile("big.bin", "bytes");\nb.length',
      "bench",
    );
    const writeText = await timed(
      gateway,
      `await workspace.writeFile("big.txt", "x".repeat(${BIG_FILE_BYTES}));`,
      "bench",
    );
    const readText = await timed(gateway, '(await workspace.readFile("big.txt")).length', "bench");

    printTable(
      "Workspace from code (isolate tier, SQLite store; one execution each, end to end)",
      ["operation", "total ms", "per file"],
      [
        [`write ${SMALL_FILES} small files`, ms(write.ms), `${ms((write.ms * 1000) / SMALL_FILES)} µs`],
        [`read ${SMALL_FILES} small files`, ms(read.ms), `${ms((read.ms * 1000) / SMALL_FILES)} µs`],
        [`list ${SMALL_FILES} files`, ms(list.ms), "-"],
        ["write one 10 MB file (bytes)", ms(writeBig.ms), "-"],
        ["read one 10 MB file (bytes)", ms(readBig.ms), "-"],
        ["write one 10 MB file (text)", ms(writeText.ms), "-"],
        ["read one 10 MB file (text)", ms(readText.ms), "-"],
      ],
    );

    progress("skills: save and import");
    const saveStarted = performance.now();
    await gateway.skills.save({
      name: "bench-math",
      code: "/** Sum of squares. */\nexport function sumSquares(values: number[]): number {\n  return values.reduce((sum, v) => sum + v * v, 0);\n}\n",
      description: "Sum of squares of a list of numbers.",
    });
    const saveFirst = performance.now() - saveStarted;
    await gateway.skills.save({
      name: "bench-stats",
      code: 'import { sumSquares } from "skills/bench-math";\nexport function rms(values: number[]): number {\n  return Math.sqrt(sumSquares(values) / values.length);\n}\n',
      description: "Root mean square of a list of numbers.",
    });
    const saveStarted2 = performance.now();
    await gateway.skills.save({
      name: "bench-math",
      code: "/** Sum of squares. */\nexport function sumSquares(values: number[]): number {\n  return values.reduce((sum, v) => sum + v * v, 0);\n}\n",
      description: "Sum of squares of a list of numbers.",
    });
    const saveLater = performance.now() - saveStarted2;
    const importing = 'import { rms } from "skills/bench-stats";\nrms([3, 4, 5])';
    const plain =
      "function rms(values: number[]) { return Math.sqrt(values.reduce((s, v) => s + v * v, 0) / values.length); }\nrms([3, 4, 5])";
    const first = await timed(gateway, importing, "bench");
    const later: number[] = [];
    const baseline: number[] = [];
    for (let run = 0; run < IMPORT_RUNS; run++) {
      later.push((await timed(gateway, importing, "bench")).ms);
      baseline.push((await timed(gateway, plain, "bench")).ms);
    }
    printTable(
      "Skills (two skills, one importing the other)",
      ["operation", "ms"],
      [
        ["save_skill, first (loads the TypeScript compiler)", ms(saveFirst)],
        ["save_skill, later", ms(saveLater)],
        ["execution importing a skill, first (compiles both modules)", ms(first.ms)],
        [`execution importing a skill, later (median of ${IMPORT_RUNS})`, ms(median(later))],
        [`same program without the import (median of ${IMPORT_RUNS})`, ms(median(baseline))],
      ],
    );
  } finally {
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSkillsWorkspace();
