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
/** Request words added to a document at most. */
export const MAX_REQUEST_WORDS = 12;
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

/**
 * Tool stem → the request stems it predicts, each with its strength. Held flat (row offsets
 * into one array of stem numbers and one of weights): a map of small arrays would cost
 * several times the table.
 */
export class RequestWords {
  readonly #rows = new Map<string, number>();
  readonly #stems: string[] = [];
  readonly #offsets: Int32Array;
  readonly #predicted: Int32Array;
  readonly #weights: Float32Array;

  /** Lines `toolStem<TAB>requestStem:weight requestStem:weight …`. */
  constructor(lines: Iterable<string>) {
    const numbers = new Map<string, number>();
    const offsets = [0];
    const predicted: number[] = [];
    const weights: number[] = [];
    for (const line of lines) {
      const tab = line.indexOf("\t");
      if (tab <= 0) continue;
      const before = predicted.length;
      for (const item of line.slice(tab + 1).split(" ")) {
        const colon = item.lastIndexOf(":");
        const weight = Number(item.slice(colon + 1));
        if (colon <= 0 || !(weight > 0)) continue;
        const stem = item.slice(0, colon);
        let number = numbers.get(stem);
        if (number === undefined) {
          number = this.#stems.length;
          numbers.set(stem, number);
          this.#stems.push(stem);
        }
        predicted.push(number);
        weights.push(weight);
      }
      if (predicted.length === before) continue;
      this.#rows.set(line.slice(0, tab), offsets.length - 1);
      offsets.push(predicted.length);
    }
    this.#offsets = Int32Array.from(offsets);
    this.#predicted = Int32Array.from(predicted);
    this.#weights = Float32Array.from(weights);
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
      const row = this.#rows.get(stem);
      if (row === undefined) continue;
      for (let at = this.#offsets[row] ?? 0; at < (this.#offsets[row + 1] ?? 0); at++) {
        const request = this.#stems[this.#predicted[at] ?? -1] ?? "";
        if (!own.has(request))
          scores.set(request, (scores.get(request) ?? 0) + (this.#weights[at] ?? 0) * share);
      }
    }
    return [...scores]
      .filter(([, score]) => score >= MIN_PREDICTION)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_REQUEST_WORDS)
      .map(([stem]) => stem);
  }
}

let shared: RequestWords | undefined;

/** The shipped table, parsed on first use (empty, said on stderr, if it cannot be read). */
export function defaultRequestWords(): RequestWords {
  shared ??= new RequestWords(readTable("request-words.tsv", "adds no request words to tools"));
  return shared;
}
