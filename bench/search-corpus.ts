// `npm run bench -- search-corpus`: tool search on the training corpus (data/search/corpus),
// split by server: the servers are dealt into CORPUS_FOLDS folds, and each fold is searched as one
// catalog with the word vectors refitted on the other folds' requests alone (as
// scripts/search-data/build-tool-vectors.ts fits the shipped table on all of them) and the
// request words, request likelihood and known tools learned from those folds alone (as
// build-request-words.ts, build-request-likelihood.ts and build-similar-tools.ts), and the pair
// weights learned from the other folds' rankings (as build-request-pairs.ts), so no server's
// tools are both learned from and searched. S@5 by request kind, mean over folds. A second table
// searches each fold as catalogs of at most CHECK_SERVERS servers, the size of the unseen check's
// catalog (test/fixtures/catalog.json: 24 servers), for the main engines.
import { LexicalSearchIndex } from "../src/search/lexical-index.ts";
import { RequestPairs } from "../src/search/request-pairs.ts";
import { generalWordVectors } from "../src/search/word-vectors.ts";
import {
  CHECK_SERVERS,
  CORPUS_FOLDS,
  type CorpusQuery,
  loadCorpus,
  REQUEST_KINDS,
  serverCatalogs,
} from "./corpus-set.ts";
import { type Learned as FoldLearned, learnedOptions, learnFolds, learnPairs } from "./fold-learning.ts";
import { ABLATIONS } from "./search-ablations.ts";
import { type EvalTool, evaluate, miniSearchRanker, ourRanker, type Ranker } from "./search-quality.ts";
import { printTable, progress } from "./table.ts";

/** Engines also searched at the check's catalog size: BM25, nothing learned, everything. */
const CHECK_ENGINES = 3;

/** What was learned without the fold searched, with pair weights learned from the other folds' rankings. */
interface Learned extends FoldLearned {
  readonly requestPairs: RequestPairs;
}

type Engine = [name: string, make: (tools: readonly EvalTool[], learned: Learned) => Ranker];

const ENGINES: Engine[] = [
  ["minisearch BM25", (tools) => miniSearchRanker(tools)],
  [
    "toolscript, nothing learned (general vectors, no request words nor likelihood)",
    (tools) =>
      ourRanker(
        tools,
        new LexicalSearchIndex({
          wordVectors: generalWordVectors() ?? false,
          requestWords: false,
          requestLikelihood: false,
          similarTools: false,
          requestPairs: false,
        }),
      ),
  ],
  [
    "toolscript",
    (tools, learned) =>
      ourRanker(
        tools,
        new LexicalSearchIndex({ ...learnedOptions(learned), requestPairs: learned.requestPairs }),
      ),
  ],
  ...ABLATIONS.map(
    ([ablation, options]): Engine => [
      `toolscript, ${ablation}`,
      (tools, learned) =>
        ourRanker(
          tools,
          new LexicalSearchIndex({
            ...learnedOptions(learned),
            requestPairs: learned.requestPairs,
            ...options(),
          }),
        ),
    ],
  ),
];

/** Successes in the top 5 by kind, then overall, of `ranker` on `queries`. */
function successes(ranker: Ranker, queries: readonly CorpusQuery[]): number[] {
  const found = (some: readonly CorpusQuery[]) => evaluate(some, ranker).s5 * some.length;
  const kinds = REQUEST_KINDS.map((kind) => found(queries.filter((query) => query.kind === kind)));
  return [...kinds, found(queries)];
}

/** Requests by kind, then overall. */
function counts(queries: readonly CorpusQuery[]): number[] {
  return [
    ...REQUEST_KINDS.map((kind) => queries.filter((query) => query.kind === kind).length),
    queries.length,
  ];
}

/** S@5 of each fold's `found` of its `asked`, as the mean over folds. */
function addFold(sums: number[], found: readonly number[], asked: readonly number[]): void {
  found.forEach((hits, kind) => {
    sums[kind] = (sums[kind] ?? 0) + hits / Math.max(1, asked[kind] ?? 0) / CORPUS_FOLDS;
  });
}

export async function benchSearchCorpus(): Promise<void> {
  const corpus = loadCorpus();
  const kindCounts = REQUEST_KINDS.map(
    (kind) => corpus.queries.filter((query) => query.kind === kind).length,
  );
  progress(
    `search corpus: ${corpus.servers.length} servers, ${corpus.tools.length} tools, ${corpus.queries.length} requests, ${CORPUS_FOLDS} folds by server`,
  );
  // Pair weights learn from rankings of servers never learned from: each fold's own, made with
  // what was learned without it. A fold's weights come from the other folds' rankings alone.
  const runs = learnFolds(corpus, CORPUS_FOLDS, (message) => progress(`search corpus: ${message}`));
  const sums = ENGINES.map(() => [0, 0, 0, 0]);
  const checkSums = ENGINES.slice(0, CHECK_ENGINES).map(() => [0, 0, 0, 0]);
  let checkCatalogs = 0;
  for (const [at, run] of runs.entries()) {
    const { fold } = run;
    const inFold = new Set(fold);
    const tools = corpus.tools.filter((tool) => inFold.has(tool.server));
    const queries = corpus.queries.filter((query) => inFold.has(query.server));
    progress(`search corpus: fold ${at + 1}: learning pair weights from the other folds' rankings`);
    const others = runs.filter((other) => other !== run).flatMap((other) => other.rankings);
    const learned: Learned = { ...run.learned, requestPairs: new RequestPairs(learnPairs(corpus, others)) };
    progress(
      `search corpus: fold ${at + 1}: ${fold.length} servers, ${tools.length} tools, ${queries.length} requests`,
    );
    ENGINES.forEach(([, make], engine) => {
      addFold(sums[engine] as number[], successes(make(tools, learned), queries), counts(queries));
    });
    const catalogs = serverCatalogs(fold, CHECK_SERVERS);
    checkCatalogs += catalogs.length;
    ENGINES.slice(0, CHECK_ENGINES).forEach(([, make], engine) => {
      const found = [0, 0, 0, 0];
      for (const catalog of catalogs) {
        const inCatalog = new Set(catalog);
        const asked = queries.filter((query) => inCatalog.has(query.server));
        const ranker = make(
          tools.filter((tool) => inCatalog.has(tool.server)),
          learned,
        );
        successes(ranker, asked).forEach((hits, kind) => {
          found[kind] = (found[kind] ?? 0) + hits;
        });
      }
      addFold(checkSums[engine] as number[], found, counts(queries));
    });
  }
  const row = (sum: readonly number[] | undefined) => (sum ?? []).map((score) => score.toFixed(3));
  printTable(
    `Search on the training corpus, split by server: S@5 by request kind (${kindCounts.join(" / ")} direct / paraphrase / task requests), mean of ${CORPUS_FOLDS} folds, each searched as one catalog (~${Math.round(corpus.tools.length / CORPUS_FOLDS)} tools) with vectors fitted on the other folds`,
    ["engine", "direct", "paraphrase", "task", "all"],
    ENGINES.map(([name], engine) => [name, ...row(sums[engine])]),
  );
  printTable(
    `The same folds at the unseen check's size: each fold searched as catalogs of at most ${CHECK_SERVERS} servers (${checkCatalogs} catalogs, ~${Math.round(corpus.tools.length / checkCatalogs)} tools each), S@5`,
    ["engine", "direct", "paraphrase", "task", "all"],
    ENGINES.slice(0, CHECK_ENGINES).map(([name], engine) => [name, ...row(checkSums[engine])]),
  );
}
