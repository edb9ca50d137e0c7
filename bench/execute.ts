// execute_code costs, measured in one run: empty executions, a tool call
// through the sandbox vs. the same call from a plain SDK client, big results
// filtered in the sandbox, concurrency, and memory per pooled isolate.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { renderTree } from "../src/catalog/declaration/tree.ts";
import { ProgramTypeChecker } from "../src/compile/type-check.ts";
import { Gateway } from "../src/gateway/gateway.ts";
import { IsolateRuntime } from "../src/sandbox/isolate/runtime.ts";
import { SCRIPTED_JS, startEverythingHttp } from "../test/helpers/servers.ts";
import { CALLS, interleaved, median, type Side } from "./interleaved.ts";
import { ms, percentile, printTable, progress } from "./table.ts";

const config = {
  mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
  toolscript: { sandbox: { poolSize: 2 } },
};

/** Runs `run` `count` times; each returns its own duration (or nothing, to be timed whole). */
async function samples(count: number, run: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const own = await run();
    times.push(typeof own === "number" ? own : performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/**
 * Per-call time of the same tool from a plain SDK client and from each
 * gateway's sandbox (bench/interleaved.ts): (an execution of CALLS calls - an
 * empty execution) / CALLS, median of the counted rounds.
 */
async function interleavedPerCall(
  direct: Client,
  gateways: Gateway[],
  server = "scripted",
): Promise<{ direct: number; gateways: number[] }> {
  const loop = `for (let i = 0; i < ${CALLS}; i++) await tools.${server}.echo({ message: "hello" }); return 1`;
  const sides: Side[] = [
    {
      label: "direct",
      calls: async () => {
        for (let i = 0; i < CALLS; i++)
          await direct.callTool({ name: "echo", arguments: { message: "hello" } });
      },
    },
    ...gateways.map((gateway, index) => ({
      label: `gateway ${index}`,
      calls: () => mustSucceed(gateway, loop).then(() => undefined),
      empty: () => mustSucceed(gateway, "return 1").then(() => undefined),
    })),
  ];
  const [directTiming, ...gatewayTimings] = await interleaved(sides, "execute");
  return {
    direct: median(directTiming?.perCall ?? []),
    gateways: gatewayTimings.map((timing) => median(timing.perCall)),
  };
}

async function mustSucceed(gateway: Gateway, code: string): Promise<unknown> {
  const response = await gateway.execute(code);
  if (response.error) throw new Error(`bench program failed: ${response.error.message}`);
  return response.result;
}

/**
 * Type-checking a program that uses three tools against the gateway's catalog: the
 * first check of a new worker (loads TypeScript, parses the lib), and warm checks of
 * a new program each time (no result cache hit), worker round trip included.
 */
async function typeCheckRows(gateway: Gateway): Promise<string[][]> {
  const declarations = {
    version: () => gateway.catalog.version,
    tree: () => renderTree(gateway.catalog.tools(), { untypedOutput: "any" as const }),
  };
  let counter = 0;
  const program = () =>
    [
      `const sum = await tools.scripted.add({ a: ${counter++}, b: 1 });`,
      'const echoed = await tools.scripted.echo({ message: "hello" });',
      "const rows = await tools.scripted.rows({ count: 3 });",
      "return [sum.sum, echoed, rows.length];",
    ].join("\n");
  const check = async (checker: ProgramTypeChecker) => {
    const t0 = performance.now();
    const error = await checker.check({ source: program(), skillDeclaration: () => undefined });
    if (error) throw new Error(`bench program does not type-check: ${error.message}`);
    return performance.now() - t0;
  };
  const once = async () => {
    const checker = new ProgramTypeChecker(declarations);
    try {
      return await check(checker);
    } finally {
      await checker.close();
    }
  };
  const cold = await samples(5, once);
  const warmChecker = new ProgramTypeChecker(declarations);
  await check(warmChecker);
  const warm = await samples(200, () => check(warmChecker));
  await warmChecker.close();
  return [
    [
      "type-check, cold (new worker: loads TypeScript, parses the lib)",
      ms(percentile(cold, 50)),
      ms(percentile(cold, 95)),
      "",
    ],
    [
      "type-check, warm, a new three-tool program each time",
      ms(percentile(warm, 50)),
      ms(percentile(warm, 95)),
      "",
    ],
  ];
}

/** The same comparison with the upstream over Streamable HTTP (server-everything's `echo`). */
async function httpPerCallRows(): Promise<string[][]> {
  const server = await startEverythingHttp();
  const direct = new Client({ name: "bench", version: "1" });
  const gateway = new Gateway({
    config: { mcpServers: { everything: { url: server.url } }, toolscript: { sandbox: { poolSize: 2 } } },
  });
  try {
    await direct.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    await gateway.start();
    const perCall = await interleavedPerCall(direct, [gateway], "everything");
    const ratio = (perCall.gateways[0] ?? 0) / perCall.direct;
    return [
      ["tool call over HTTP, plain SDK client (per call)", ms(perCall.direct), "", "1.00x"],
      [
        "tool call over HTTP from the sandbox, defaults",
        ms(perCall.gateways[0] ?? 0),
        "",
        `${ratio.toFixed(2)}x`,
      ],
    ];
  } finally {
    await direct.close();
    await gateway.close();
    await server.stop();
  }
}

export async function benchExecute(): Promise<void> {
  const rows: string[][] = [];
  const gateway = new Gateway({ config });
  await gateway.start();
  progress("type-check");
  rows.push(...(await typeCheckRows(gateway)));
  const direct = new Client({ name: "bench", version: "1" });
  await direct.connect(new StdioClientTransport({ command: process.execPath, args: [SCRIPTED_JS] }));
  try {
    progress("empty executions");
    for (let i = 0; i < 50; i++) await mustSucceed(gateway, "return 1");
    // An agent leaves time between executions (the model thinks); the pool refills then.
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
    const same = await samples(200, async () => {
      await pause();
      const t0 = performance.now();
      await mustSucceed(gateway, "return 1");
      return performance.now() - t0;
    });
    rows.push([
      "empty execution, warm, same program (compile cached)",
      ms(percentile(same, 50)),
      ms(percentile(same, 95)),
      "",
    ]);
    let counter = 0;
    const fresh = await samples(200, async () => {
      await pause();
      const t0 = performance.now();
      await mustSucceed(gateway, `return ${counter++}`);
      return performance.now() - t0;
    });
    rows.push([
      "empty execution, warm, a new program each time",
      ms(percentile(fresh, 50)),
      ms(percentile(fresh, 95)),
      "",
    ]);
    const backToBack = await samples(300, async () => {
      const t0 = performance.now();
      await mustSucceed(gateway, `return ${counter++}`);
      return performance.now() - t0;
    });
    rows.push([
      "empty execution, back to back (pool drained)",
      ms(percentile(backToBack, 50)),
      ms(percentile(backToBack, 95)),
      "",
    ]);

    const cold = await samples(30, async () => {
      const runtime = new IsolateRuntime({ poolSize: 0 });
      // The isolate's cold start alone: the type checker's is its own row.
      const coldGateway = new Gateway({ config: { toolscript: { sandbox: { typecheck: false } } }, runtime });
      const t0 = performance.now();
      await coldGateway.execute(`return ${counter++}`);
      const elapsed = performance.now() - t0;
      await coldGateway.close();
      return elapsed;
    });
    rows.push([
      "empty execution, cold (new isolate, no pool)",
      ms(percentile(cold, 50)),
      ms(percentile(cold, 95)),
      "",
    ]);

    progress("tool call: sandbox vs. plain SDK client");
    // A second gateway with PII tokenization off shows what the privacy scan of each result costs.
    const bare = new Gateway({
      config: { ...config, toolscript: { ...config.toolscript, privacy: { pii: false } } },
    });
    await bare.start();
    try {
      const perCall = await interleavedPerCall(direct, [gateway, bare]);
      rows.push([
        "tool call, plain SDK client (per call, median of 7 × 200)",
        ms(perCall.direct),
        "",
        "1.00x",
      ]);
      rows.push([
        "tool call from the sandbox, defaults (PII scan, audit, policy, validation)",
        ms(perCall.gateways[0] ?? 0),
        "",
        `${((perCall.gateways[0] ?? 0) / perCall.direct).toFixed(2)}x`,
      ]);
      rows.push([
        "tool call from the sandbox, PII tokenization off",
        ms(perCall.gateways[1] ?? 0),
        "",
        `${((perCall.gateways[1] ?? 0) / perCall.direct).toFixed(2)}x`,
      ]);
      rows.push(...(await httpPerCallRows()));
      const hundred = `for (let i = 0; i < 100; i++) await tools.scripted.echo({ message: "hello" }); return 1`;
      const hundredTimes = await samples(7, () => mustSucceed(gateway, hundred).then(() => undefined));
      rows.push([
        "100 sequential calls in one execution",
        ms(percentile(hundredTimes, 50)),
        ms(percentile(hundredTimes, 95)),
        "",
      ]);
    } finally {
      await bare.close();
    }

    progress("1 MB result filtered in the sandbox");
    const filter =
      "const rows = await tools.scripted.rows({ count: 10000 }); return rows.filter((r) => r.amount > 990).slice(0, 10).map((r) => r.id)";
    const bytes = (await gateway.execute(filter)).toolResultBytes;
    const filtered = await samples(10, () => mustSucceed(gateway, filter).then(() => {}));
    const directBig = await samples(10, async () => {
      await direct.callTool({ name: "rows", arguments: { count: 10000 } });
    });
    rows.push([
      `${(bytes / 1e6).toFixed(2)} MB result filtered to 10 ids in the sandbox`,
      ms(percentile(filtered, 50)),
      ms(percentile(filtered, 95)),
      `${(percentile(filtered, 50) / percentile(directBig, 50)).toFixed(2)}x of the bare call`,
    ]);

    progress("50 concurrent executions");
    const started = performance.now();
    const each: number[] = [];
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const t0 = performance.now();
        await mustSucceed(gateway, `const r = await tools.scripted.add({ a: ${i}, b: 1 }); return r.sum`);
        each.push(performance.now() - t0);
      }),
    );
    const wall = performance.now() - started;
    each.sort((a, b) => a - b);
    rows.push([
      `50 concurrent executions (${((50 / wall) * 1000).toFixed(0)} executions/s)`,
      ms(percentile(each, 50)),
      ms(percentile(each, 95)),
      "",
    ]);
  } finally {
    await direct.close();
    await gateway.close();
  }

  progress("memory per pooled isolate");
  const POOL = 32;
  for (let i = 0; i < 3; i++) global.gc?.();
  const before = process.memoryUsage().rss;
  const pooled = new IsolateRuntime({ poolSize: POOL, prewarmMemoryMb: 64 });
  // Prewarming is asynchronous: give it time, then collect garbage before reading RSS.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  for (let i = 0; i < 3; i++) global.gc?.();
  const after = process.memoryUsage().rss;
  await pooled.close();
  rows.push([
    `RSS per idle pooled isolate (pool of ${POOL}, RSS delta / ${POOL})`,
    `${((after - before) / POOL / 1e6).toFixed(2)} MB`,
    "",
    "",
  ]);

  printTable("execute_code (isolate tier, one run, 2 cores)", ["what", "p50 ms", "p95 ms", "ratio"], rows);
}
