import { specificity } from "./specificity.ts";
import { readTable } from "./tables.ts";
import { stem, terms, words } from "./tokenize.ts";
import { memoByWord } from "./vocabulary-memo.ts";

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
export const DOMAIN_TERM_WEIGHT = 1;
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

/** A phrase's words as the table is matched, function words included. */
export function phraseKey(text: string): string {
  return words(text).map(wordKey).join(" ");
}

/**
 * Endings that inflect a word without changing what it names ("tests", "deploying", "queried");
 * not "-er": "followers" are no way to "follow".
 */
const INFLECTIONS = new Set(["", "s", "es", "ed", "d", "ing"]);

/**
 * A word's stem when the word is its stem inflected ("tests", "queries", "running"), else the
 * word itself: a product named like a derived word ("Checkly", "Contentful", "Fastly") must not
 * match "check", "contents" or "fast", which the stemmer would make of it. Such a word is read
 * without a plural "s", so "follower" and "followers" are one.
 */
const wordKey = memoByWord((word: string): string => {
  const root = stem(word);
  for (const base of root.endsWith("i") ? [root, `${root.slice(0, -1)}y`] : [root]) {
    const bare = base.endsWith("e") ? base.slice(0, -1) : base;
    for (const start of [base, bare, `${base}${base.at(-1) ?? ""}`]) {
      if (word.startsWith(start) && INFLECTIONS.has(word.slice(start.length))) return root;
    }
  }
  return `=${word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word}`;
});

/** Phrase stems → meanings, and per first word the longest phrase it starts. */
interface PhraseTable {
  readonly meanings: Map<string, string[]>;
  readonly longestFrom: Map<string, number>;
}

/**
 * Phrase → meanings. Lines `KIND<TAB>LEFT<TAB>RIGHT`, RIGHT being phrases joined by `|`:
 * - `>` a request saying LEFT wants what tools call RIGHT (everyday wording, jargon);
 * - `:` LEFT is a kind of RIGHT (a product and its category), in requests and tools alike;
 * - `=` LEFT and RIGHT name the same thing (an abbreviation), both ways, in requests and tools.
 * A tool's own wording is read only for `:` and `=`: everyday phrases ("ping", "back up") mean
 * what they say in a tool's description.
 */
export class DomainTerms {
  readonly #requests: PhraseTable = { meanings: new Map(), longestFrom: new Map() };
  readonly #tools: PhraseTable = { meanings: new Map(), longestFrom: new Map() };
  /** Request phrase → what it stands for, worked out on first use. */
  readonly #expansions = new Map<string, DomainExpansion>();

  constructor(lines: Iterable<string>) {
    for (const line of lines) {
      const [kind, left, right, extra] = line.split("\t");
      if (extra !== undefined || !left || !right || !KINDS.has(kind ?? "")) continue;
      const targets = right
        .split("|")
        .map((phrase) => phrase.trim())
        .filter(Boolean);
      const tables = kind === ">" ? [this.#requests] : [this.#requests, this.#tools];
      for (const table of tables) {
        add(table, left, targets);
        if (kind === "=") for (const target of targets) add(table, target, [left]);
      }
    }
  }

  /** Phrases a request can say. */
  get size(): number {
    return this.#requests.meanings.size;
  }

  /** What the phrases of a request stand for. */
  expand(request: string): DomainExpansion[] {
    return [...phrases(this.#requests, request)].map(([key, meanings]) => {
      let known = this.#expansions.get(key);
      if (known === undefined) {
        known = expansion(key, meanings);
        this.#expansions.set(key, known);
      }
      return known;
    });
  }

  /** The terms a tool's products and abbreviations stand for, each once: a tool saying "Trello" is also about boards. */
  documentTerms(text: string): string[] {
    const own = new Set(terms(text));
    const out = new Set<string>();
    for (const [key, meanings] of phrases(this.#tools, text))
      for (const term of meaningWeights(key, meanings).keys()) if (!own.has(term)) out.add(term);
    return [...out];
  }
}

/** The kinds of line: see `DomainTerms`. */
export const KINDS: ReadonlySet<string> = new Set([">", ":", "="]);

function add(table: PhraseTable, phrase: string, targets: readonly string[]): void {
  const key = phraseKey(phrase);
  const keyWords = key.split(" ");
  const length = keyWords.length;
  // A phrase of function words alone ("likes", "what's up") is any request's.
  if (key === "" || length > MAX_PHRASE_WORDS || terms(key.replaceAll("=", "")).length === 0) return;
  const first = keyWords[0] as string;
  table.longestFrom.set(first, Math.max(table.longestFrom.get(first) ?? 0, length));
  const meanings = table.meanings.get(key) ?? [];
  for (const target of targets) if (!meanings.includes(target)) meanings.push(target);
  table.meanings.set(key, meanings);
}

/** The phrases of `text` a table holds, longest first at each word; a word inside one starts no other. */
function* phrases(table: PhraseTable, text: string): Generator<[key: string, meanings: readonly string[]]> {
  const stems = words(text).map(wordKey);
  for (let at = 0; at < stems.length; ) {
    let matched = 1;
    const longest = table.longestFrom.get(stems[at] as string) ?? 0;
    for (let length = Math.min(longest, stems.length - at); length > 0; length--) {
      const key = stems.slice(at, at + length).join(" ");
      const meanings = table.meanings.get(key);
      if (!meanings) continue;
      yield [key, meanings];
      matched = length;
      break;
    }
    at += matched;
  }
}

function expansion(key: string, meanings: readonly string[]): DomainExpansion {
  const own = terms(key.replaceAll("=", ""));
  const source = own.sort((a, b) => specificity(b) - specificity(a))[0];
  return { source, terms: [...meaningWeights(key, meanings)].map(([term, weight]) => ({ term, weight })) };
}

/** The terms of a phrase's meanings the phrase does not say itself, each at its meaning's weight. */
function meaningWeights(key: string, meanings: readonly string[]): Map<string, number> {
  const own = new Set(terms(key.replaceAll("=", "")));
  const weights = new Map<string, number>();
  meanings.forEach((meaning, rank) => {
    const weight = DOMAIN_TERM_WEIGHT * MEANING_DECAY ** rank;
    for (const term of terms(meaning)) {
      if (!own.has(term) && !weights.has(term)) weights.set(term, weight);
    }
  });
  return weights;
}

let shared: DomainTerms | undefined;

/** The shipped table, parsed on first use (empty, said on stderr, if it cannot be read). */
export function defaultDomainTerms(): DomainTerms {
  shared ??= new DomainTerms(readTable("domain-terms.tsv", "knows no abbreviations, jargon or products"));
  return shared;
}
