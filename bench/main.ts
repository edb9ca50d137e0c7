// `npm run bench`: every benchmark, printed as tables. Pass names to run some: `npm run bench -- upstream`.
import { benchExecute } from "./execute.ts";
import { benchUpstreamStart } from "./upstream-start.ts";

const suites: Record<string, () => Promise<void>> = {
  execute: benchExecute,
  upstream: benchUpstreamStart,
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(suites)) {
  if (wanted.length === 0 || wanted.includes(name)) await run();
}
