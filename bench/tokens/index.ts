// The token-savings benchmark: each workload run by a direct-tool-calling agent
// and by a code-mode agent through the gateway, counted with one tokenizer.
import { createTokenizer } from "../../src/output/tokenizer.ts";
import { printTable, progress } from "../table.ts";
import { searchAnswerTokens } from "./search-answers.ts";
import {
  csvTopTen,
  documentToCrm,
  multiServer,
  startingDefinitions,
  type WorkloadResult,
} from "./workloads.ts";

const pct = (direct: number, code: number) => `${(100 * (1 - code / direct)).toFixed(2)}%`;
const n = (value: number) => value.toLocaleString("en-US");

export async function benchTokens(): Promise<void> {
  const tokenizer = createTokenizer("claude-legacy");
  const results: WorkloadResult[] = [];
  for (const workload of [documentToCrm, csvTopTen, multiServer]) {
    progress(`tokens: ${workload.name}`);
    results.push(await workload(tokenizer));
  }
  printTable(
    `Token savings per workload (${tokenizer.name} tokenizer; code mode counts what the gateway actually returned)`,
    ["workload", "direct tokens", "code-mode tokens", "saved"],
    results.map((result) => [
      result.name,
      n(result.direct.total),
      n(result.codeMode.total),
      pct(result.direct.total, result.codeMode.total),
    ]),
  );
  const breakdown: string[][] = [];
  for (const result of results) {
    const kinds = new Set([...result.direct.entries, ...result.codeMode.entries].map((entry) => entry.kind));
    for (const kind of kinds) {
      const direct = result.direct.of(kind);
      const code = result.codeMode.of(kind);
      breakdown.push([
        result.name.split(" (")[0] ?? result.name,
        kind,
        direct ? n(direct) : "",
        code ? n(code) : "",
      ]);
    }
  }
  printTable("Where the tokens go", ["workload", "part", "direct", "code mode"], breakdown);
  progress("tokens: starting definitions with all 24 catalog servers");
  const start = await startingDefinitions(tokenizer);
  printTable(
    "Definitions an agent starts with, all 24 catalog servers (304 tools) connected",
    ["agent", "tokens"],
    [
      ["direct: every tool definition", n(start.direct)],
      ["code mode: the gateway's meta-tools", n(start.gateway)],
    ],
  );
  progress("tokens: search_tools answers over the fixture catalog");
  printTable(
    "search_tools answers, 5 tools, 16 typical requests over the fixture catalog",
    ["detail", "median tokens", "max tokens"],
    searchAnswerTokens(tokenizer).map((row) => [
      row.isDefault ? `${row.detail} (default)` : row.detail,
      n(row.median),
      n(row.max),
    ]),
  );
}
