// CLI start-up: `toolscript --help` and `toolscript --version` against a bare
// `node -e 0`, timed in the same run (the ratio is what holds on a noisy machine),
// with the peak RSS each process reached. Runs the built CLI (dist/), as users do.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { builtCli } from "./built-cli.ts";
import { ms, percentile, printTable, progress } from "./table.ts";

const ROUNDS = 7;

/** Wall time of one run and the process's peak RSS (from /usr/bin/time when present). */
function timeOnce(args: string[]): { ms: number; rssMb: number | undefined } {
  const timeBin = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;
  const started = performance.now();
  const result = timeBin
    ? spawnSync(timeBin, ["-f", "%M", process.execPath, ...args], { encoding: "utf8" })
    : spawnSync(process.execPath, args, { encoding: "utf8" });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  const kb = timeBin ? Number(result.stderr.trim().split("\n").at(-1)) : Number.NaN;
  return { ms: elapsed, rssMb: Number.isFinite(kb) ? kb / 1024 : undefined };
}

export async function benchCliStart(): Promise<void> {
  const bin = builtCli();
  const cases: Array<[string, string[]]> = [
    ["node -e 0", ["-e", "0"]],
    ["toolscript --help", [bin, "--help"]],
    ["toolscript --version", [bin, "--version"]],
    ["toolscript serve --help", [bin, "serve", "--help"]],
  ];
  const results = new Map<string, { median: number; rssMb: number | undefined }>();
  for (const [label, args] of cases) {
    progress(`cli start: ${label} × ${ROUNDS}`);
    const samples: number[] = [];
    let rssMb: number | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const once = timeOnce(args);
      samples.push(once.ms);
      rssMb = Math.max(rssMb ?? 0, once.rssMb ?? 0) || undefined;
    }
    samples.sort((a, b) => a - b);
    results.set(label, { median: percentile(samples, 50), rssMb });
  }
  const base = results.get("node -e 0")?.median ?? Number.NaN;
  printTable(
    `CLI start-up (median of ${ROUNDS}, one run; the goal for --help is ≤ 6× node -e 0)`,
    ["command", "ms", "× node -e 0", "peak RSS MB"],
    [...results].map(([label, { median, rssMb }]) => [
      label,
      ms(median),
      (median / base).toFixed(2),
      rssMb === undefined ? "-" : rssMb.toFixed(0),
    ]),
  );
}
