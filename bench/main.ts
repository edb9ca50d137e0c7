// `npm run bench`: every benchmark, printed as tables. Pass names to run some: `npm run bench -- execute search-quality`.
import { benchAudit } from "./audit.ts";
import { benchCliStart } from "./cli-start.ts";
import { benchEvalDemo } from "./eval-demo.ts";
import { benchExecute } from "./execute.ts";
import { benchIdleMemory } from "./idle-memory.ts";
import { benchLoad } from "./load.ts";
import { benchPeers } from "./peers.ts";
import { benchPii } from "./pii.ts";
import { benchPython } from "./python.ts";
import { benchReplicas } from "./replicas.ts";
import { benchSearchCorpus } from "./search-corpus.ts";
import { benchSearchLatency } from "./search-latency.ts";
import { benchSearchQuality } from "./search-quality.ts";
import { benchSearchStages } from "./search-stages.ts";
import { benchSearchUnseen } from "./search-unseen.ts";
import { benchSkillsWorkspace } from "./skills-workspace.ts";
import { benchTiers } from "./tiers.ts";
import { benchTokens } from "./tokens/index.ts";
import { benchUpstreamStart } from "./upstream-start.ts";

const suites: Record<string, () => Promise<void>> = {
  "cli-start": benchCliStart,
  upstream: benchUpstreamStart,
  "idle-memory": benchIdleMemory,
  execute: benchExecute,
  peers: benchPeers,
  tiers: benchTiers,
  "skills-workspace": benchSkillsWorkspace,
  audit: benchAudit,
  load: benchLoad,
  "search-quality": benchSearchQuality,
  "search-latency": benchSearchLatency,
  "search-corpus": benchSearchCorpus,
  "search-stages": benchSearchStages,
  "search-unseen": benchSearchUnseen,
  tokens: benchTokens,
  pii: benchPii,
  python: benchPython,
  "eval-demo": benchEvalDemo,
  replicas: benchReplicas,
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in suites));
if (unknown.length > 0) {
  process.stderr.write(`unknown bench ${unknown.join(", ")}; available: ${Object.keys(suites).join(", ")}\n`);
  process.exit(2);
}
// One bench failing says which and why, and the others still run.
const failed: string[] = [];
for (const [name, run] of Object.entries(suites)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  try {
    await run();
  } catch (error) {
    failed.push(name);
    process.stderr.write(
      `bench ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
}
if (failed.length > 0) {
  process.stderr.write(`failed benches: ${failed.join(", ")}\n`);
  process.exitCode = 1;
}
