import { StemRows, weightedStems } from "./stem-rows.ts";
import { readTable } from "./tables.ts";
import { terms } from "./tokenize.ts";
import type { SearchDocument } from "./types.ts";

/**
 * The words requests use for what a tool's words name, learned from requests written for
 * public MCP servers' tools (data/search/request-words.tsv, made by
 * scripts/search-data/build-request-words.ts): a tool saying "delete" and "asset" is asked
 * for as "remove" a "photo". A document is indexed also under the request words its own words
 * predict together (a translation model, Berger & Lafferty 1999), in a field of its own that
 * counts less than its own words (fields.ts).
 */

/** Text of a tool read for its words: its name, title and what it does (the start of its description). */
export const TOOL_TEXT_CHARS = 600;
/**
 * Request words added to a document at most: its few strongest predictions. More let a tool be
 * found by words that only some of its requests use ("report" for a page's save-as-PDF tool);
 * on the corpus split by server 4, 6, 8 and 12 find the same share of paraphrases (0.692–0.693 at
 * the check's size), while 12 loses LiveMCPBench's "…and save it to /root/x.md" tasks to them.
 */
export const MAX_REQUEST_WORDS = 4;
/** A request word is added when the document's words predict it at least this much. */
export const MIN_PREDICTION = 0.05;

/** A tool's name, title and the start of its description: what it does. */
export function toolText(doc: Pick<SearchDocument, "name" | "title" | "description">): string {
  return `${doc.name} ${doc.title ?? ""} ${doc.description.slice(0, TOOL_TEXT_CHARS)}`;
}

/** A document's stems as the table was learned from (and is read with). */
export function toolWords(doc: Pick<SearchDocument, "name" | "title" | "description">): Set<string> {
  return new Set(terms(toolText(doc)));
}

/** Tool stem → the request stems it predicts, each with its strength (held flat: stem-rows.ts). */
export class RequestWords {
  readonly #rows: StemRows;

  /** Lines `toolStem<TAB>requestStem:weight requestStem:weight …`. */
  constructor(lines: Iterable<string>) {
    this.#rows = new StemRows(parse(lines), Float32Array);
  }

  get size(): number {
    return this.#rows.size;
  }

  /** The request stems a document's own stems predict best, strongest first; none it holds itself. */
  expand(own: ReadonlySet<string>): string[] {
    if (own.size === 0) return [];
    const scores = new Map<string, number>();
    const share = 1 / Math.sqrt(own.size);
    for (const stem of own) {
      this.#rows.forEach(stem, (request, weight) => {
        if (!own.has(request)) scores.set(request, (scores.get(request) ?? 0) + weight * share);
      });
    }
    return [...scores]
      .filter(([, score]) => score >= MIN_PREDICTION)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_REQUEST_WORDS)
      .map(([stem]) => stem);
  }
}

/** The table's rows with at least one well-formed item. */
function* parse(lines: Iterable<string>): Generator<[string, [string, number][]]> {
  for (const line of lines) {
    const tab = line.indexOf("\t");
    if (tab <= 0) continue;
    const items = weightedStems(line.slice(tab + 1));
    if (items.length > 0) yield [line.slice(0, tab), items];
  }
}

let shared: RequestWords | undefined;

/** The shipped table, parsed on first use (empty, said on stderr, if it cannot be read). */
export function defaultRequestWords(): RequestWords {
  shared ??= new RequestWords(readTable("request-words.tsv", "adds no request words to tools"));
  return shared;
}
