// Python code mode (Pyodide in Deno in bubblewrap) beside the TypeScript
// process tier, in one run: interpreter start from scratch and from the memory
// snapshot, warm executions, per tool call cost, memory per pooled
// interpreter, sustained executions per second with the pool refilling.
import { readdirSync, readFileSync } from "node:fs";
import { Gateway } from "../src/gateway/gateway.ts";
import { checkProcessTier, removeRunnerFiles, writeRunnerFiles } from "../src/sandbox/process/setup.ts";
import { pythonDriverFiles } from "../src/sandbox/python/driver-files.ts";
import { pyodideFiles } from "../src/sandbox/python/pyodide-files.ts";
import { pyodideIndexURL, startPythonProcess } from "../src/sandbox/python/python-process.ts";
import { pythonRunnerSource } from "../src/sandbox/python/runner-source.ts";
import { obtainSnapshot } from "../src/sandbox/python/snapshot-source.ts";
import { SCRIPTED_JS, tempDir } from "../test/helpers/servers.ts";
import { ms, percentile, printTable, progress } from "./table.ts";

const sleep = (time: number) => new Promise((resolve) => setTimeout(resolve, time));
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/** Spawn to `ready` of one interpreter, from scratch or from the snapshot. */
async function startTimes(): Promise<{ scratch: number[]; snapshot: number[] }> {
  const setup = await checkProcessTier({});
  const pyodide = pyodideFiles();
  const driver = pythonDriverFiles();
  const files = writeRunnerFiles(pythonRunnerSource(pyodideIndexURL(setup, pyodide)));
  const dir = tempDir("bench-python-snapshot");
  try {
    const snapshot = await obtainSnapshot({
      ...files,
      setup,
      pyodide,
      driver,
      cacheDir: dir.path,
      script: files.script,
    });
    const time = async (from: Buffer | undefined): Promise<number> => {
      const t0 = performance.now();
      const child = startPythonProcess({ setup, ...files, pyodide, driver, snapshot: from, memoryMb: 128 });
      try {
        await child.ready;
        return performance.now() - t0;
      } finally {
        child.kill();
        await child.exited;
      }
    };
    const scratch: number[] = [];
    for (let i = 0; i < 3; i++) scratch.push(await time(undefined));
    const restored: number[] = [];
    for (let i = 0; i < 8; i++) restored.push(await time(snapshot));
    return { scratch: sorted(scratch), snapshot: sorted(restored) };
  } finally {
    removeRunnerFiles(files);
    dir.remove();
  }
}

/** Resident memory (MiB) of each Deno process below this one. */
function denoRssMb(): number[] {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      parents.set(Number(entry), Number(/PPid:\s+(\d+)/.exec(status)?.[1]));
      names.set(Number(entry), /Name:\s+(\S+)/.exec(status)?.[1] ?? "");
      rss.set(Number(entry), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      // Gone while we looked.
    }
  }
  const below = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at))
      if (at === process.pid) return true;
    return false;
  };
  return [...names].filter(([pid, name]) => name === "deno" && below(pid)).map(([pid]) => rss.get(pid) ?? 0);
}

async function throughGateway(): Promise<string[][]> {
  const dir = tempDir("bench-python");
  const gateway = new Gateway({
    config: {
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      toolscript: {
        sandbox: { runtime: "process", poolSize: 2, python: { pool: 2 }, typecheck: false },
        storage: { dir: dir.path },
        audit: { stderr: "off" },
      },
    },
  });
  await gateway.start();
  try {
    const run = async (code: string, language: "python" | "typescript") => {
      const t0 = performance.now();
      const response = await gateway.execute({ code, language });
      if (response.error) throw new Error(`${language}: ${response.error.message}`);
      return performance.now() - t0;
    };
    progress("python: first execution (snapshot made or read, pool filled)");
    await run("1", "python");
    await sleep(3_000);
    const rss = denoRssMb().filter((mb) => mb > 100);
    progress("python: warm executions");
    const warm: number[] = [];
    for (let i = 0; i < 20; i++) {
      // Room for the pool to refill: a ready interpreter waits for each execution.
      await sleep(1_500);
      warm.push(await run(`${i} + 1`, "python"));
    }
    progress("python vs typescript: per tool call");
    // Timed inside the program, so the interpreter's acquisition is not part of it.
    const calls = 300;
    const perCall = async (language: "python" | "typescript"): Promise<number> => {
      const code =
        language === "python"
          ? `import time\nt0 = time.perf_counter()\nfor i in range(${calls}):\n    await tools.scripted.echo(message="x")\n(time.perf_counter() - t0) * 1000 / ${calls}`
          : `const t0 = Date.now(); for (let i = 0; i < ${calls}; i++) await tools.scripted.echo({ message: "x" }); return (Date.now() - t0) / ${calls};`;
      await sleep(1_500);
      const response = await gateway.execute({ code, language });
      if (response.error) throw new Error(`${language}: ${response.error.message}`);
      return response.result as number;
    };
    const tsCall: number[] = [];
    const pyCall: number[] = [];
    for (let i = 0; i < 5; i++) {
      tsCall.push(await perCall("typescript"));
      pyCall.push(await perCall("python"));
    }
    progress("python: sustained executions (4 at a time, 20 s)");
    await sleep(2_000);
    let done = 0;
    const until = performance.now() + 20_000;
    const worker = async () => {
      while (performance.now() < until) {
        await run("sum(range(1000))", "python");
        done += 1;
      }
    };
    const t0 = performance.now();
    await Promise.all([worker(), worker(), worker(), worker()]);
    const perSecond = done / ((performance.now() - t0) / 1000);
    const ts = percentile(sorted(tsCall), 50);
    const py = percentile(sorted(pyCall), 50);
    const warmSorted = sorted(warm);
    return [
      ["warm execution p50 (ready interpreter)", `${ms(percentile(warmSorted, 50))} ms`, "≤ 50 ms"],
      ["warm execution p95", `${ms(percentile(warmSorted, 95))} ms`, ""],
      ["per tool call, Python", `${ms(py)} ms`, ""],
      ["per tool call, TypeScript process tier", `${ms(ts)} ms`, ""],
      ["per tool call, Python / TypeScript", `${(py / ts).toFixed(2)}x`, "≤ 1.3x"],
      [
        "RSS per pooled interpreter",
        rss.length === 0 ? "n/a" : `${rss.map((mb) => mb.toFixed(0)).join(", ")} MiB`,
        "reported",
      ],
      ["sustained executions/s (pool 2 refilling, 4 clients)", perSecond.toFixed(2), ""],
    ];
  } finally {
    await gateway.close();
    dir.remove();
  }
}

export async function benchPython(): Promise<void> {
  progress("python: interpreter start, from scratch and from the snapshot");
  const starts = await startTimes();
  const rows = await throughGateway();
  printTable(
    "Python code mode (Pyodide 314 in Deno in bubblewrap) beside the TypeScript process tier, one run",
    ["measure", "value", "goal"],
    [
      ["fresh interpreter from scratch, p50 of 3", `${ms(percentile(starts.scratch, 50))} ms`, ""],
      [
        "fresh interpreter from the snapshot, p50 of 8",
        `${ms(percentile(starts.snapshot, 50))} ms`,
        "≤ 600 ms",
      ],
      ["fresh interpreter from the snapshot, max", `${ms(starts.snapshot.at(-1) ?? Number.NaN)} ms`, ""],
      ...rows,
    ],
  );
}
