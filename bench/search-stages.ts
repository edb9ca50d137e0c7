// `npm run bench -- search-stages`: each stage of tool search switched off alone, on servers never
// learned from, at the unseen check's catalog size. The corpus's servers are dealt into the same
// CORPUS_FOLDS folds as bench/search-corpus.ts; each fold's tables are learned without it
// (fold-learning.ts `learnWithout`), and the fold is searched as catalogs of at most
// CHECK_SERVERS servers. No pair weights in any row: learning them from each fold's rankings is
// most of search-corpus's hour. S@5 by request kind over all requests.
import { LexicalSearchIndex } from "../src/search/lexical-index.ts";
import type { LexicalSearchIndexOptions } from "../src/search/lexical-index-options.ts";
import {
  CHECK_SERVERS,
  CORPUS_FOLDS,
  loadCorpus,
  REQUEST_KINDS,
  serverCatalogs,
  serverFolds,
} from "./corpus-set.ts";
import { type Learned, learnedOptions, learnWithout } from "./fold-learning.ts";
import { ABLATIONS } from "./search-ablations.ts";
import { ourRanker } from "./search-quality.ts";
import { printTable, progress } from "./table.ts";

const ENGINES: [name: string, options: (learned: Learned) => LexicalSearchIndexOptions][] = [
  ["toolscript, no pair weights", learnedOptions],
  ...ABLATIONS.map(([ablation, options]): (typeof ENGINES)[number] => [
    `no pair weights, ${ablation}`,
    (learned) => ({ ...learnedOptions(learned), ...options() }),
  ]),
];

export async function benchSearchStages(): Promise<void> {
  const corpus = loadCorpus();
  // Per engine, per kind then overall: [found, asked].
  const tallies = ENGINES.map(() => Array.from({ length: REQUEST_KINDS.length + 1 }, () => [0, 0]));
  for (const [at, fold] of serverFolds(corpus.servers, CORPUS_FOLDS).entries()) {
    progress(`search stages: fold ${at + 1} of ${CORPUS_FOLDS}: learning from the other folds' requests`);
    const learned = learnWithout(corpus, fold, at);
    progress(`search stages: fold ${at + 1} of ${CORPUS_FOLDS}: searching ${ENGINES.length} engines`);
    for (const catalog of serverCatalogs(fold, CHECK_SERVERS)) {
      const inCatalog = new Set(catalog);
      const tools = corpus.tools.filter((tool) => inCatalog.has(tool.server));
      const queries = corpus.queries.filter((query) => inCatalog.has(query.server));
      ENGINES.forEach(([, options], engine) => {
        const ranker = ourRanker(tools, new LexicalSearchIndex(options(learned)));
        for (const query of queries) {
          const found = ranker(query.query)
            .slice(0, 5)
            .some((id) => query.expected.includes(id));
          for (const kind of [REQUEST_KINDS.indexOf(query.kind), REQUEST_KINDS.length]) {
            const tally = tallies[engine]?.[kind];
            if (!tally) continue;
            tally[0] = (tally[0] ?? 0) + (found ? 1 : 0);
            tally[1] = (tally[1] ?? 0) + 1;
          }
        }
      });
    }
  }
  printTable(
    `Each search stage switched off alone, at the unseen check's size: the corpus's ${corpus.servers.length} servers in ${CORPUS_FOLDS} folds, each searched as catalogs of at most ${CHECK_SERVERS} servers with the tables learned without it, no pair weights; S@5 over all ${corpus.queries.length} requests`,
    ["engine", ...REQUEST_KINDS, "all"],
    ENGINES.map(([name], engine) => [
      name,
      ...(tallies[engine] ?? []).map(([found = 0, asked = 0]) => (found / Math.max(1, asked)).toFixed(3)),
    ]),
  );
}
