import { specificity } from "./specificity.ts";
import { readTable } from "./tables.ts";
import { stem, terms, words } from "./tokenize.ts";

/**
 * What requests call by other names than tools do, as phrases: abbreviations ("PR" is a pull
 * request), jargon ("kill switch" is a feature flag), everyday wording ("jot down" is creating a
 * note) and products ("Trello" is a kanban board). WordNet knows none of these; the table
 * (data/search/domain-terms.tsv) is general knowledge of software and everyday tasks, written for
 * ToolScript, not learned from any catalog.
 *
 * Phrases are matched on the stems of all their words, function words included: "shut down" and
 * "log in" say what "shut" and "log" alone do not.
 */

/** Weight of the words of a phrase's first meaning; later meanings weigh less (`MEANING_DECAY`). */
export const DOMAIN_TERM_WEIGHT = 0.6;
/** Each further meaning of a phrase weighs this much of the one before. */
export const MEANING_DECAY = 0.85;
/** Longest phrase, in words ("what's" is two). */
export const MAX_PHRASE_WORDS = 6;

/** The terms a request phrase stands for, and the request term they count as. */
export interface DomainExpansion {
  /** The phrase's most telling term (its words' stems, function words left out). */
  readonly source: string | undefined;
  /** Terms of the phrase's meanings, each with its weight, strongest first. */
  readonly terms: readonly { readonly term: string; readonly weight: number }[];
}

/** A phrase's stems, function words included, as the table is matched. */
function phraseKey(text: string): string {
  return words(text).map(stem).join(" ");
}

/**
 * Phrase → meanings. Lines `KIND<TAB>LEFT<TAB>RIGHT`, RIGHT being phrases joined by `|`:
 * `>` means a request saying LEFT wants what tools call RIGHT; `=` also the other way
 * (an abbreviation and what it stands for).
 */
export class DomainTerms {
  readonly #meanings = new Map<string, string[]>();
  #longest = 1;

  constructor(lines: Iterable<string>) {
    for (const line of lines) {
      const [kind, left, right, extra] = line.split("\t");
      if (extra !== undefined || !left || !right || (kind !== ">" && kind !== "=")) continue;
      const targets = right
        .split("|")
        .map((phrase) => phrase.trim())
        .filter(Boolean);
      this.#add(left, targets);
      if (kind === "=") for (const target of targets) this.#add(target, [left]);
    }
  }

  get size(): number {
    return this.#meanings.size;
  }

  #add(phrase: string, targets: readonly string[]): void {
    const key = phraseKey(phrase);
    const length = key.split(" ").length;
    if (key === "" || length > MAX_PHRASE_WORDS) return;
    this.#longest = Math.max(this.#longest, length);
    const meanings = this.#meanings.get(key) ?? [];
    for (const target of targets) if (!meanings.includes(target)) meanings.push(target);
    this.#meanings.set(key, meanings);
  }

  /** The phrases of `text` the table holds, longest first at each word; a word inside one starts no other. */
  *#phrases(text: string): Generator<[key: string, meanings: readonly string[]]> {
    const stems = words(text).map(stem);
    for (let at = 0; at < stems.length; ) {
      let matched = 1;
      for (let length = Math.min(this.#longest, stems.length - at); length > 0; length--) {
        const key = stems.slice(at, at + length).join(" ");
        const meanings = this.#meanings.get(key);
        if (!meanings) continue;
        yield [key, meanings];
        matched = length;
        break;
      }
      at += matched;
    }
  }

  /** What the phrases of `text` stand for. */
  expand(text: string): DomainExpansion[] {
    return [...this.#phrases(text)].map(([key, meanings]) => expansion(key, meanings));
  }

  /** The terms a tool's phrases stand for, each once: a tool saying "Trello" is also about boards. */
  documentTerms(text: string): string[] {
    const own = new Set(terms(text));
    const out = new Set<string>();
    for (const { terms: meant } of this.expand(text))
      for (const { term } of meant) if (!own.has(term)) out.add(term);
    return [...out];
  }
}

function expansion(key: string, meanings: readonly string[]): DomainExpansion {
  const own = new Set(terms(key));
  const source = [...own].sort((a, b) => specificity(b) - specificity(a))[0];
  const weights = new Map<string, number>();
  meanings.forEach((meaning, rank) => {
    const weight = DOMAIN_TERM_WEIGHT * MEANING_DECAY ** rank;
    for (const term of terms(meaning)) {
      if (!own.has(term) && !weights.has(term)) weights.set(term, weight);
    }
  });
  return { source, terms: [...weights].map(([term, weight]) => ({ term, weight })) };
}

let shared: DomainTerms | undefined;

/** The shipped table, parsed on first use (empty, said on stderr, if it cannot be read). */
export function defaultDomainTerms(): DomainTerms {
  shared ??= new DomainTerms(readTable("domain-terms.tsv", "knows no abbreviations, jargon or products"));
  return shared;
}
