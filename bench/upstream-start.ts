// Time to connect to N stdio servers and list all their tools. Start-up is
// parallel, so 20 servers should cost little more than the slowest one; on
// 2 cores, starting 20 Node processes is itself CPU-bound, which the
// slow-start row (servers that wait before answering) separates out.

import { UpstreamManager } from "../src/upstream/manager.ts";
import { EVERYTHING_JS, SCRIPTED_JS, stdioServer } from "../test/helpers/servers.ts";
import { ms, printTable, progress } from "./table.ts";

const ROUNDS = 3;

async function timeStart(
  count: number,
  script: string,
  args: string[],
): Promise<{ ms: number; tools: number }> {
  const servers = Array.from({ length: count }, (_, index) => stdioServer(`s${index}`, script, args));
  const manager = new UpstreamManager(servers);
  const started = performance.now();
  const statuses = await manager.start();
  const elapsed = performance.now() - started;
  await manager.close();
  const failed = statuses.filter((status) => status.state !== "ready");
  if (failed.length) throw new Error(`servers failed: ${JSON.stringify(failed)}`);
  return { ms: elapsed, tools: statuses.reduce((sum, status) => sum + status.toolCount, 0) };
}

export async function benchUpstreamStart(): Promise<void> {
  const rows: string[][] = [];
  for (const [label, script, args] of [
    ["scripted (SDK server)", SCRIPTED_JS, []],
    ["server-everything", EVERYTHING_JS, ["stdio"]],
    ["slow start (1 s init)", SCRIPTED_JS, ["--init-delay", "1000"]],
  ] as const) {
    let one = 0;
    for (const count of [1, 5, 20]) {
      progress(`upstream start: ${count} × ${label}`);
      const samples: number[] = [];
      let tools = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const result = await timeStart(count, script, [...args]);
        samples.push(result.ms);
        tools = result.tools;
      }
      const median = samples.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] as number;
      if (count === 1) one = median;
      rows.push([
        label,
        String(count),
        String(tools),
        ms(median),
        `${(median / one).toFixed(2)}x`,
        ms(one * count),
      ]);
    }
  }
  printTable(
    `Connect + list all tools of N stdio servers (median of ${ROUNDS}, 2 cores)`,
    ["server", "N", "tools", "parallel ms", "vs N=1", "one by one (N × N=1) ms"],
    rows,
  );
}
