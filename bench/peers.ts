// Code-mode peers side by side: one MCP tool call (scripted-server's `echo`, over
// stdio) from ToolScript's sandbox, from the UTCP code-mode client's sandbox, and
// from a plain SDK client, with bench/interleaved.ts's method: per call = (an
// execution of CALLS calls - an empty execution) / CALLS, median of interleaved
// rounds, all ratios from one run. The peer comes from its own package in
// bench/peers/ (installed on first use); when it cannot install or run, the
// table says why and compares ToolScript with the direct client only.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Gateway } from "../src/gateway/gateway.ts";
import { SCRIPTED_JS, tempDir } from "../test/helpers/servers.ts";
import { CALLS, type Side as CallSide, interleaved, median, ROUNDS } from "./interleaved.ts";
import { type CodeModeClient, loadCodeModePeer } from "./peers-package.ts";
import { ms, printTable, progress } from "./table.ts";

const MESSAGE = "hello";

/** One side of the comparison, closed at the end. */
interface Side extends CallSide {
  close(): Promise<void>;
}

async function directSide(): Promise<Side> {
  const client = new Client({ name: "bench-peers", version: "1" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SCRIPTED_JS] }));
  return {
    label: "plain SDK client, direct",
    calls: async () => {
      for (let i = 0; i < CALLS; i++)
        await client.callTool({ name: "echo", arguments: { message: MESSAGE } });
    },
    close: () => client.close(),
  };
}

/** ToolScript's gateway in this process; `pii: false` shows what the privacy scan of each result costs (the peer has none). */
async function toolscriptSide(pii: boolean): Promise<Side> {
  const storage = tempDir("bench-peers");
  const gateway = new Gateway({
    config: {
      mcpServers: { scripted: { command: process.execPath, args: [SCRIPTED_JS] } },
      // The default level's memory limit (128 MB) is the peer's default too.
      toolscript: { sandbox: { poolSize: 2 }, privacy: { pii }, storage: { dir: storage.path } },
    },
  });
  await gateway.start();
  const run = async (code: string) => {
    const response = await gateway.execute(code);
    if (response.error) throw new Error(`ToolScript: ${response.error.message}`);
  };
  const loop = `for (let i = 0; i < ${CALLS}; i++) await tools.scripted.echo({ message: "${MESSAGE}" }); return 1`;
  return {
    label: pii
      ? "ToolScript execute_code (isolate tier, defaults)"
      : "ToolScript execute_code, PII tokenization off",
    calls: () => run(loop),
    empty: () => run("return 1"),
    close: async () => {
      await gateway.close();
      storage.remove();
    },
  };
}

/** The peer prints a line per tool call with console.log: silenced while it runs, so the table stays readable. */
async function quietly<T>(run: () => Promise<T>): Promise<T> {
  const { log, info } = console;
  console.log = () => {};
  console.info = () => {};
  try {
    return await run();
  } finally {
    console.log = log;
    console.info = info;
  }
}

async function codeModeSide(): Promise<Side> {
  const peer = await loadCodeModePeer();
  const client: CodeModeClient = await quietly(() => peer.create());
  // As @utcp/mcp's README registers an MCP server: one manual, its tools named `<manual>.<server>_<tool>` in code.
  await quietly(() =>
    client.registerManual({
      name: "scripted",
      call_template_type: "mcp",
      config: {
        mcpServers: { scripted: { transport: "stdio", command: process.execPath, args: [SCRIPTED_JS] } },
      },
    }),
  );
  const run = async (code: string) => {
    const { result, logs } = await quietly(() => client.callToolChain(code, 60_000, 128));
    if (result !== 1)
      throw new Error(`${peer.label}: the program returned ${JSON.stringify(result)}: ${logs.join(" ")}`);
  };
  // Its tool calls are synchronous in the sandbox (no await).
  const loop = `for (let i = 0; i < ${CALLS}; i++) scripted.scripted_echo({ message: "${MESSAGE}" }); return 1;`;
  await run(loop);
  return {
    label: `UTCP code-mode (${peer.label})`,
    calls: () => run(loop),
    empty: () => run("return 1;"),
    close: () => quietly(() => client.close()),
  };
}

export async function benchPeers(): Promise<void> {
  const sides = [await directSide(), await toolscriptSide(true), await toolscriptSide(false)];
  let peerProblem: string | undefined;
  try {
    progress("peers: UTCP code-mode");
    sides.push(await codeModeSide());
  } catch (error) {
    peerProblem = error instanceof Error ? error.message : String(error);
    progress(`peers: UTCP code-mode is left out: ${peerProblem}`);
  }
  try {
    const timings = await interleaved(sides, "peers");
    const direct = median(timings[0]?.perCall ?? []);
    const rows = sides.map((side, index) => {
      const timing = timings[index] ?? { perCall: [], empty: [] };
      const perCall = median(timing.perCall);
      return [
        side.label,
        ms(perCall),
        `${(perCall / direct).toFixed(2)}x`,
        side.empty ? ms(median(timing.empty)) : "",
      ];
    });
    if (peerProblem) rows.push(["UTCP code-mode: not measured", peerProblem, "", ""]);
    printTable(
      `Code-mode peers: one MCP tool call (scripted-server echo, stdio), per call = (execution of ${CALLS} calls - empty execution) / ${CALLS}, median of ${ROUNDS - 1} interleaved rounds, one run, 2 cores`,
      ["caller", "ms per call", "× direct", "empty execution ms"],
      rows,
    );
  } finally {
    for (const side of sides) await side.close();
  }
}
