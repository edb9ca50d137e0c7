import { LEXICON } from "./data/lexicon.ts";

/** A stem related to a query stem, with how much a match on it counts (0..1). */
export interface RelatedTerm {
  readonly term: string;
  readonly weight: number;
}

/** How much a match on a related word counts, by WordNet relation (see data/build-lexicon.ts). */
export const RELATION_WEIGHTS: Readonly<Record<string, number>> = { s: 0.3, d: 0.3, a: 0.2, h: 0.15 };
/** Later (less frequent) senses count less: factor for sense rank 0, 1, 2, 3. */
export const SENSE_DECAY: readonly number[] = [1, 0.7, 0.5, 0.35];

/** Stem → related stems, from the shipped WordNet extract; parsed once, on first use. */
export class Lexicon {
  readonly #entries = new Map<string, RelatedTerm[]>();

  constructor(text: string) {
    for (const line of text.split("\n")) {
      const tab = line.indexOf("\t");
      if (tab <= 0) continue;
      const related: RelatedTerm[] = [];
      for (const item of line.slice(tab + 1).split(" ")) {
        const colon = item.lastIndexOf(":");
        const relation = RELATION_WEIGHTS[item.charAt(colon + 1)] ?? 0;
        const decay = SENSE_DECAY[Number(item.slice(colon + 2))] ?? 0;
        if (colon > 0 && relation * decay > 0)
          related.push({ term: item.slice(0, colon), weight: relation * decay });
      }
      this.#entries.set(line.slice(0, tab), related);
    }
  }

  related(term: string): readonly RelatedTerm[] {
    return this.#entries.get(term) ?? [];
  }

  get size(): number {
    return this.#entries.size;
  }
}

let shared: Lexicon | undefined;

/** The WordNet lexicon shipped with the package. */
export function defaultLexicon(): Lexicon {
  shared ??= new Lexicon(LEXICON);
  return shared;
}
