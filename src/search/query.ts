import { englishGlossTerms } from "./chinese-glosses.ts";
import { DOMAIN_SYNONYM_WEIGHT, domainSynonyms } from "./domain-synonyms.ts";
import { entityWords, impliedActions, withoutEncodedData, withoutLocations } from "./entities.ts";
import type { Lexicon } from "./lexicon.ts";
import { nameTerms } from "./proper-nouns.ts";
import { specificity } from "./specificity.ts";
import { terms } from "./tokenize.ts";

/** A term of an analysed query and how much a match on it counts. */
export interface WeightedTerm {
  readonly term: string;
  readonly weight: number;
  /** The query term it was derived from (itself for original terms). */
  readonly source: string;
}

/** Weight of the words implied by a path, URL or file extension in the query (see entities.ts). */
export const ENTITY_WEIGHT = 0.5;

/** Weight of a word that occurs only inside a file path or URL of the query. */
export const LOCATION_WEIGHT = 0.3;

/** Weight of the English glosses of the query's Chinese words (see chinese-glosses.ts). */
export const GLOSS_WEIGHT = 0.8;

/** Related words added per query term, strongest first. */
export const MAX_EXPANSIONS_PER_TERM = 8;

/**
 * The query's terms (data pasted into it left out) and the actions it implies (weight 1, repeated terms counted once; words
 * only inside a path or URL at `LOCATION_WEIGHT`), the English glosses of its Chinese words, then the terms' related terms from the lexicon, each at its relation
 * weight; a term reached from several query terms keeps its best weight, and original
 * terms are never down-weighted by a relation. Every weight is then scaled by its source word's `specificity`, so
 * generic English words ("provide", "latest") count less than telling ones.
 */
export function analyzeQuery(
  query: string,
  lexicon: Lexicon | undefined,
  bySpecificity = true,
): WeightedTerm[] {
  const weights = new Map<string, WeightedTerm>();
  const text = withoutEncodedData(query);
  const originals = [...new Set(terms(withoutLocations(text)))];
  for (const term of [...originals, ...terms(impliedActions(text))])
    weights.set(term, { term, weight: 1, source: term });
  // A translation is a query word of its own (it finds tools described in English), never
  // above or in place of a word the query says itself.
  for (const term of englishGlossTerms(text)) {
    if (!weights.has(term)) weights.set(term, { term, weight: GLOSS_WEIGHT, source: term });
  }
  for (const term of terms(entityWords(query))) {
    if (!weights.has(term)) weights.set(term, { term, weight: ENTITY_WEIGHT, source: term });
  }
  // Path and URL words last: what an extension implies (".md" → markdown) outweighs them.
  for (const term of terms(text)) {
    if (!weights.has(term)) weights.set(term, { term, weight: LOCATION_WEIGHT, source: term });
  }
  for (const source of originals) {
    for (const term of domainSynonyms(source)) {
      const previous = weights.get(term);
      if (!previous || previous.weight < DOMAIN_SYNONYM_WEIGHT) {
        weights.set(term, { term, weight: DOMAIN_SYNONYM_WEIGHT, source });
      }
    }
  }
  if (lexicon) {
    const names = nameTerms(text);
    for (const source of originals) {
      // A name expands only by word vector, and only when no dictionary sense can mislead:
      // "Bitcoin" → cryptocurrency, "Nvidia" → GPU, but never "Apple" → fruit.
      if (names.has(source) && lexicon.inDictionary(source)) continue;
      for (const related of lexicon.related(source).slice(0, MAX_EXPANSIONS_PER_TERM)) {
        const previous = weights.get(related.term);
        if (!previous || previous.weight < related.weight) {
          weights.set(related.term, { term: related.term, weight: related.weight, source });
        }
      }
    }
  }
  if (!bySpecificity) return [...weights.values()];
  return [...weights.values()].map((entry) => {
    const factor = specificity(entry.source);
    return factor === 1 ? entry : { ...entry, weight: entry.weight * factor };
  });
}
