import { StemRows } from "./stem-rows.ts";
import { readTable } from "./tables.ts";

/** A stem related to a query stem, with how much a match on it counts (0..1). */
export interface RelatedTerm {
  readonly term: string;
  readonly weight: number;
}

/** How much a match on a related word counts, by WordNet relation (see scripts/search-data/build-lexicon.ts). */
export const RELATION_WEIGHTS: Readonly<Record<string, number>> = { s: 0.3, d: 0.3, a: 0.2, h: 0.15 };
/** Later (less frequent) senses count less: factor for sense rank 0, 1, 2, 3. */
export const SENSE_DECAY: readonly number[] = [1, 0.7, 0.5, 0.35];

/**
 * Stem → related stems, strongest first, from two shipped tables (data/search/), parsed once:
 * - WordNet relations (`wordnet`, lexicon.tsv by scripts/search-data/build-lexicon.ts), weighted
 *   by relation and sense;
 * - nearest stems by word vector (`neighbours`, word-neighbours.txt by
 *   scripts/search-data/build-word-neighbours.ts), weighted by their cosine: they know what
 *   WordNet (2006) does not ("bitcoin" is a cryptocurrency).
 * Each is the table's text or its lines.
 */
export class Lexicon {
  readonly #rows: StemRows;

  constructor(wordnet: string | Iterable<string>, neighbours: string | Iterable<string> = "") {
    const entries = new Map<string, Map<string, number>>();
    for (const [stem, items] of lines(wordnet)) {
      const related = new Map<string, number>();
      for (const item of items) {
        const colon = item.lastIndexOf(":");
        const relation = RELATION_WEIGHTS[item.charAt(colon + 1)] ?? 0;
        const decay = SENSE_DECAY[Number(item.slice(colon + 2))] ?? 0;
        const term = item.slice(0, colon);
        if (colon > 0 && relation * decay > 0 && !related.has(term)) related.set(term, relation * decay);
      }
      entries.set(stem, related);
    }
    for (const [stem, items] of lines(neighbours)) {
      const related = entries.get(stem) ?? new Map<string, number>();
      for (const item of items) {
        const colon = item.lastIndexOf(":");
        const cosine = Number(item.slice(colon + 1)) / 100;
        if (colon <= 0 || !(cosine > 0 && cosine <= 1)) continue;
        const term = item.slice(0, colon);
        if ((related.get(term) ?? 0) < cosine) related.set(term, cosine);
      }
      entries.set(stem, related);
    }
    // Strongest first; a stable sort keeps the table's order among equals.
    this.#rows = new StemRows(
      [...entries].map(([stem, related]) => [stem, [...related].sort((a, b) => b[1] - a[1])] as const),
    );
  }

  related(term: string): readonly RelatedTerm[] {
    const out: RelatedTerm[] = [];
    this.#rows.forEach(term, (related, weight) => out.push({ term: related, weight }));
    return out;
  }

  get size(): number {
    return this.#rows.size;
  }
}

/** `stem<TAB>item item …` lines; `#` comments and malformed lines are skipped. */
function* lines(table: string | Iterable<string>): Generator<[string, string[]]> {
  for (const line of typeof table === "string" ? table.split("\n") : table) {
    const tab = line.indexOf("\t");
    if (tab <= 0 || line.startsWith("#")) continue;
    yield [line.slice(0, tab), line.slice(tab + 1).split(" ")];
  }
}

/** The WordNet extract shipped in `data/search/`. Without it (a partial install) no word is expanded by WordNet. */
const shippedWordNet = () => readTable("lexicon.tsv", "expands no word by WordNet");

/**
 * The word-vector neighbour table shipped in `data/search/`. Without it (a partial install)
 * expansion uses WordNet alone: said on stderr.
 */
const shippedNeighbours = () => readTable("word-neighbours.txt", "expands words by WordNet only");

let shared: Lexicon | undefined;

/** The lexicon shipped with the package: WordNet and the word-vector neighbours, read on first use. */
export function defaultLexicon(): Lexicon {
  shared ??= new Lexicon(shippedWordNet(), shippedNeighbours());
  return shared;
}

/** WordNet alone (the benchmark's ablation of the neighbours). */
export function wordNetLexicon(): Lexicon {
  return new Lexicon(shippedWordNet());
}
