// 200 concurrent executions against a real upstream with the execution cap at
// 16: every one completes or gets "busy", and memory returns to its baseline.
import { Gateway } from "../src/gateway/gateway.ts";
import { SCRIPTED_JS, tempDir } from "../test/helpers/servers.ts";
import { ms, percentile, printTable, progress } from "./table.ts";

const CONCURRENT = 200;

async function settle(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return process.memoryUsage().rss;
}

export async function benchLoad(): Promise<void> {
  const rows: string[][] = [];
  for (const maxQueued of [64, 1000]) {
    const dir = tempDir("load");
    const gateway = new Gateway({
      config: {
        mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
        toolscript: {
          sandbox: { maxConcurrent: 16, maxQueued, poolSize: 4 },
          storage: { dir: dir.path },
          audit: { stderr: "off" },
        },
      },
    });
    await gateway.start();
    try {
      for (let i = 0; i < 20; i++) await gateway.execute("return 1");
      const baseline = await settle();
      progress(`load: ${CONCURRENT} concurrent executions, cap 16, queue ${maxQueued}`);
      const started = performance.now();
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const latencies: number[] = [];
      const outcomes = await Promise.all(
        Array.from({ length: CONCURRENT }, async (_, i) => {
          const t0 = performance.now();
          const response = await gateway.execute(
            `const rows = await tools.scripted.rows({ count: 200 }); await tools.scripted.slow({ ms: 20 }); return rows.filter((r) => r.id % ${i + 2} === 0).length`,
          );
          latencies.push(performance.now() - t0);
          return response.error ? response.error.name : "ok";
        }),
      );
      clearInterval(sampler);
      const wall = performance.now() - started;
      const after = await settle();
      const ok = outcomes.filter((outcome) => outcome === "ok").length;
      const busy = outcomes.filter((outcome) => outcome === "BusyError").length;
      const other = CONCURRENT - ok - busy;
      latencies.sort((a, b) => a - b);
      rows.push([
        String(maxQueued),
        String(ok),
        String(busy),
        String(other),
        ms(wall),
        ms(percentile(latencies, 50)),
        ms(percentile(latencies, 95)),
        `${(baseline / 1e6).toFixed(0)} MB`,
        `${(peak / 1e6).toFixed(0)} MB`,
        `${(after / 1e6).toFixed(0)} MB (${after > baseline ? "+" : ""}${((after - baseline) / 1e6).toFixed(1)})`,
      ]);
    } finally {
      await gateway.close();
      dir.remove();
    }
  }
  printTable(
    `${CONCURRENT} concurrent executions (each: 2 tool calls, a 20 kB result filtered), max 16 running`,
    ["queue", "ok", "busy", "other", "wall ms", "p50 ms", "p95 ms", "RSS before", "RSS peak", "RSS after"],
    rows,
  );
}
