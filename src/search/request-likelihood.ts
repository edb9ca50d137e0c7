import { TOOL_TEXT_CHARS } from "./request-words.ts";
import { weightedStems } from "./stem-rows.ts";
import { readTable } from "./tables.ts";
import { wordTerms } from "./tokenize.ts";
import type { SearchDocument } from "./types.ts";

/**
 * How likely a request's words are, given the words of the tool it asks for: a translation
 * model (IBM model 1, as Berger & Lafferty 1999 use it for retrieval) learned from requests
 * written for public MCP servers' tools (data/search/request-likelihood.tsv, made by
 * scripts/search-data/build-request-likelihood.ts). Where request words (request-words.ts)
 * index a tool under words it predicts, this weighs every word of a request against every word
 * of a tool, so it tells apart the tools of one server that share most of their words: "get
 * rid of the old ticket" is likelier from `delete_issue` than from `update_issue`.
 */

/** Description words read for a tool's source words (after its name, counted twice). */
export const SOURCE_DESCRIPTION_WORDS = 40;

/** A request's stems as the table was learned from (and is read with). */
export function requestStems(text: string): string[] {
  return wordTerms(text);
}

/**
 * The words a tool's requests are translated from: its name's stems twice (the name says what
 * it does, in few words) and the first stems of its title and description.
 */
export function toolSourceWords(doc: Pick<SearchDocument, "name" | "title" | "description">): string[] {
  const name = wordTerms(doc.name);
  const text = `${doc.title ?? ""} ${doc.description.slice(0, TOOL_TEXT_CHARS)}`;
  const described = wordTerms(text).slice(0, SOURCE_DESCRIPTION_WORDS);
  return [...name, ...name, ...described];
}

/** What the table says of one request word. */
export interface RequestWord {
  /** Its share of all request words. */
  readonly background: number;
  /** t(word | the empty word): how likely it is in a request for any tool. */
  readonly anyTool: number;
  /** The tool words it comes from, as the table numbers them (`sourceNumber`). */
  readonly sources: Int32Array;
  /** t(word | each of those tool words). */
  readonly probabilities: Float32Array;
}

/**
 * Request stem → the tool stems it comes from, with t(request stem | tool stem), held flat: one
 * array of tool-stem numbers and one of probabilities for all rows, each stem's text once.
 */
export class RequestLikelihood {
  readonly #sourceNumbers = new Map<string, number>();
  readonly #words = new Map<string, RequestWord>();

  /** Lines `requestStem<TAB>background<TAB>anyTool<TAB>toolStem:p toolStem:p …`. */
  constructor(lines: Iterable<string>) {
    const rows: [string, number, number, number, number][] = [];
    const numbers: number[] = [];
    const probabilities: number[] = [];
    for (const line of lines) {
      const [stem, background, anyTool, items = ""] = line.split("\t");
      const share = Number(background);
      if (!stem || !(share > 0)) continue;
      const start = numbers.length;
      for (const [source, probability] of weightedStems(items)) {
        let number = this.#sourceNumbers.get(source);
        if (number === undefined) {
          number = this.#sourceNumbers.size;
          this.#sourceNumbers.set(source, number);
        }
        numbers.push(number);
        probabilities.push(probability);
      }
      rows.push([stem, share, Number(anyTool) || 0, start, numbers.length]);
    }
    const allSources = Int32Array.from(numbers);
    const allProbabilities = Float32Array.from(probabilities);
    for (const [stem, background, anyTool, start, end] of rows)
      this.#words.set(stem, {
        background,
        anyTool,
        sources: allSources.subarray(start, end),
        probabilities: allProbabilities.subarray(start, end),
      });
  }

  /** Request words the table knows. */
  get size(): number {
    return this.#words.size;
  }

  /** Tool words the table knows. */
  get sourceCount(): number {
    return this.#sourceNumbers.size;
  }

  /** What the table knows of a request stem; undefined for one no request of the corpus used. */
  word(stem: string): RequestWord | undefined {
    return this.#words.get(stem);
  }

  /** The table's number for a tool stem; undefined for one no tool of the corpus had. */
  sourceNumber(stem: string): number | undefined {
    return this.#sourceNumbers.get(stem);
  }
}

let shared: RequestLikelihood | undefined;

/** The shipped table, parsed on first use (empty, said on stderr, if it cannot be read). */
export function defaultRequestLikelihood(): RequestLikelihood {
  shared ??= new RequestLikelihood(
    readTable("request-likelihood.tsv", "does not weigh requests against tools' words"),
  );
  return shared;
}
