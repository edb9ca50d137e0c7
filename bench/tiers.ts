// The cost of the process tier (Deno in bubblewrap) against the isolate tier,
// measured in one run with the same gateway setup and the same upstream.
import { Gateway } from "../src/gateway/gateway.ts";
import { SCRIPTED_JS, tempDir } from "../test/helpers/servers.ts";
import { ms, percentile, printTable, progress } from "./table.ts";

const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

async function measure(runtime: "isolate" | "process"): Promise<string[]> {
  const dir = tempDir(`tier-${runtime}`);
  const gateway = new Gateway({
    config: {
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      toolscript: { sandbox: { runtime, poolSize: 2 }, storage: { dir: dir.path }, audit: { stderr: "off" } },
    },
  });
  await gateway.start();
  try {
    const run = async (code: string) => {
      const response = await gateway.execute(code);
      if (response.error) throw new Error(`${runtime}: ${response.error.message}`);
    };
    for (let i = 0; i < 5; i++) await run("return 1");
    const warm: number[] = [];
    for (let i = 0; i < 40; i++) {
      await pause();
      const t0 = performance.now();
      await run(`return ${i}`);
      warm.push(performance.now() - t0);
    }
    const backToBack: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      await run(`return ${i}`);
      backToBack.push(performance.now() - t0);
    }
    const calls = 200;
    await pause();
    const t0 = performance.now();
    await run(`for (let i = 0; i < ${calls}; i++) await tools.scripted.echo({ message: "x" }); return 1`);
    const loop = performance.now() - t0;
    await pause();
    const t1 = performance.now();
    await run("return 0");
    const empty = performance.now() - t1;
    warm.sort((a, b) => a - b);
    backToBack.sort((a, b) => a - b);
    return [
      runtime,
      ms(percentile(warm, 50)),
      ms(percentile(warm, 95)),
      ms(percentile(backToBack, 50)),
      ms((loop - empty) / calls),
    ];
  } finally {
    await gateway.close();
    dir.remove();
  }
}

export async function benchTiers(): Promise<void> {
  const rows: string[][] = [];
  for (const runtime of ["isolate", "process"] as const) {
    progress(`tiers: ${runtime}`);
    rows.push(await measure(runtime));
  }
  const [isolate, processTier] = rows as [string[], string[]];
  rows.push([
    "process / isolate",
    `${(Number(processTier[1]) / Number(isolate[1])).toFixed(1)}x`,
    "",
    `${(Number(processTier[3]) / Number(isolate[3])).toFixed(1)}x`,
    `${(Number(processTier[4]) / Number(isolate[4])).toFixed(1)}x`,
  ]);
  printTable(
    "Sandbox tiers through the gateway (one run; warm = 20 ms between executions, as an agent leaves)",
    ["tier", "empty warm p50 ms", "p95 ms", "back to back p50 ms", "ms per tool call"],
    rows,
  );
}
