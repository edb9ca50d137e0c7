import { actionsOf } from "./actions.ts";
import { englishGlossTerms } from "./chinese-glosses.ts";
import { DOMAIN_SYNONYM_WEIGHT, domainSynonyms } from "./domain-synonyms.ts";
import { type DomainTerms, defaultDomainTerms } from "./domain-terms.ts";
import {
  entityWords,
  impliedActions,
  withoutEncodedData,
  withoutLocations,
  withoutQuotes,
} from "./entities.ts";
import type { Lexicon } from "./lexicon.ts";
import { specificity } from "./specificity.ts";
import { terms } from "./tokenize.ts";

/** A term of an analysed query and how much a match on it counts. */
export interface WeightedTerm {
  readonly term: string;
  readonly weight: number;
  /** The query term it was derived from (itself for original terms). */
  readonly source: string;
  /** Matched as written only, never guessed at (a word in quotes: see partial-matches.ts). */
  readonly exact?: true;
}

/** Weight of the words implied by a path, URL or file extension in the query (see entities.ts). */
export const ENTITY_WEIGHT = 0.5;

/** Weight of a word that occurs only inside a file path or URL of the query. */
export const LOCATION_WEIGHT = 0.3;

/** Weight of a word that occurs only in quotes: a title or name the task passes on (see entities.ts). */
export const QUOTED_WEIGHT = 0.5;

/** Weight of the English glosses of the query's Chinese words (see chinese-glosses.ts). */
export const GLOSS_WEIGHT = 0.8;

/** Weight of the action the request's first action word names (see actions.ts). */
export const ACTION_WEIGHT = 0.5;

/** Related words added per query term, strongest first. */
export const MAX_EXPANSIONS_PER_TERM = 8;

/** Stages of the analysis that can be switched off (every one is on by default), for ablations. */
export interface QueryStages {
  /** Related words from the software synonym table (domain-synonyms.ts). */
  readonly domainSynonyms?: boolean;
  /** Words implied by paths, URLs, identifiers and write targets (entities.ts). */
  readonly entities?: boolean;
  /** English glosses of Chinese words (chinese-glosses.ts). */
  readonly chineseGlosses?: boolean;
  /** The action the request asks for, matched against the one a tool's name says (actions.ts). */
  readonly actions?: boolean;
  /**
   * What the request's abbreviations, jargon, everyday phrases and products stand for
   * (domain-terms.ts); a table in place of the shipped one, or `false` for none.
   */
  readonly domainTerms?: boolean | DomainTerms;
}

/**
 * The weighted terms of a request (data pasted into it left out, repeated terms counted once):
 * - its own words and the actions it implies at weight 1; words only in quotes at
 *   `QUOTED_WEIGHT`, only inside a path or URL at `LOCATION_WEIGHT`;
 * - the English glosses of its Chinese words and the words its entities imply;
 * - the action its first action word names, at `ACTION_WEIGHT`, a term of its own: a tool whose
 *   name says that action gains it on top of the verb's match (actions.ts);
 * - what its abbreviations, jargon, everyday phrases and products stand for (domain-terms.ts);
 * - its own words' related words, from the domain synonyms and the lexicon, each at its
 *   relation weight (a term reached from several words keeps its best weight, and a word of
 *   the request is never down-weighted by a relation).
 * Every weight is then scaled by its source word's `specificity`, so generic English words
 * ("provide", "latest") count less than telling ones.
 */
export function analyzeQuery(
  query: string,
  lexicon: Lexicon | undefined,
  bySpecificity = true,
  stages: QueryStages = {},
): WeightedTerm[] {
  const {
    domainSynonyms: bySynonyms = true,
    entities = true,
    chineseGlosses = true,
    actions = true,
    domainTerms = true,
  } = stages;
  const weights = new Map<string, WeightedTerm>();
  const text = withoutEncodedData(query);
  const pathless = withoutLocations(text);
  // Most requests have no path and no quotes: their text, pathless and unquoted are one string.
  const read = new Map<string, string[]>();
  const termsOf = (part: string): string[] => {
    let known = read.get(part);
    if (known === undefined) {
      known = terms(part);
      read.set(part, known);
    }
    return known;
  };
  const outsidePaths = termsOf(pathless);
  // A request that is all quotes ("“weather in Paris”") is all it says.
  const unquoted = termsOf(withoutQuotes(pathless));
  const originals = [...new Set(unquoted.length > 0 ? unquoted : outsidePaths)];
  for (const term of [...originals, ...(entities ? terms(impliedActions(text)) : [])])
    weights.set(term, { term, weight: 1, source: term });
  // A translation is a query word of its own (it finds tools described in English), never
  // above or in place of a word the query says itself.
  for (const term of chineseGlosses ? englishGlossTerms(text) : []) {
    if (!weights.has(term)) weights.set(term, { term, weight: GLOSS_WEIGHT, source: term });
  }
  for (const term of entities ? terms(entityWords(query)) : []) {
    if (!weights.has(term)) weights.set(term, { term, weight: ENTITY_WEIGHT, source: term });
  }
  for (const term of outsidePaths) {
    if (!weights.has(term)) weights.set(term, { term, weight: QUOTED_WEIGHT, source: term, exact: true });
  }
  // Path and URL words last: what an extension implies (".md" → markdown) outweighs them.
  for (const term of termsOf(text)) {
    if (!weights.has(term)) weights.set(term, { term, weight: LOCATION_WEIGHT, source: term });
  }
  // The first action word says what is wanted; later ones are often the next steps of a task.
  const action = actions ? originals.find((term) => actionsOf(term).length > 0) : undefined;
  for (const term of action === undefined ? [] : actionsOf(action)) {
    weights.set(term, { term, weight: ACTION_WEIGHT, source: term });
  }
  for (const source of originals) {
    for (const term of bySynonyms ? domainSynonyms(source) : []) {
      const previous = weights.get(term);
      if (!previous || previous.weight < DOMAIN_SYNONYM_WEIGHT) {
        weights.set(term, { term, weight: DOMAIN_SYNONYM_WEIGHT, source });
      }
    }
  }
  const table = domainTerms === true ? defaultDomainTerms() : domainTerms || undefined;
  for (const expansion of table ? table.expand(pathless) : []) {
    for (const { term, weight } of expansion.terms) {
      const previous = weights.get(term);
      if (!previous || previous.weight < weight)
        weights.set(term, { term, weight, source: expansion.source ?? term });
    }
  }
  if (lexicon) {
    for (const source of originals) {
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
