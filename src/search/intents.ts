import { terms } from "./tokenize.ts";

/** A clause needs this many index terms to be searched on its own. */
export const MIN_INTENT_TERMS = 2;
/** Queries with fewer index terms than this are one intent. */
export const MIN_SPLIT_QUERY_TERMS = 6;
/** At most this many clauses are searched separately (the first ones). */
export const MAX_INTENTS = 4;

/**
 * Where a task changes step: sentence ends, semicolons, commas before a verb-led
 * clause are not detectable without a parser, so commas, "and then", "then", "and"
 * between clauses, and "after/before that" all count.
 */
const CLAUSE_BREAK =
  /[.!?;\n]+(?:\s+|$)|,\s*(?:and\s+|then\s+)*|\s+(?:and\s+then|then|and|after\s+that|afterwards)\s+/i;

/**
 * The separate steps of a multi-step task ("find X, summarise it and save it to Y"):
 * clauses with at least `MIN_INTENT_TERMS` index terms, a short clause joined to the
 * one before it. A short query is one intent and gives `[]`.
 */
export function splitIntents(query: string): string[] {
  if (terms(query).length < MIN_SPLIT_QUERY_TERMS) return [];
  const clauses: string[] = [];
  for (const part of query.split(CLAUSE_BREAK)) {
    const clause = part?.trim() ?? "";
    if (clause === "") continue;
    const last = clauses.length - 1;
    if (last >= 0 && terms(clauses[last] ?? "").length < MIN_INTENT_TERMS)
      clauses[last] = `${clauses[last]} ${clause}`;
    else clauses.push(clause);
  }
  const last = clauses.length - 1;
  if (last > 0 && terms(clauses[last] ?? "").length < MIN_INTENT_TERMS) {
    clauses[last - 1] = `${clauses[last - 1]} ${clauses.pop()}`;
  }
  return clauses.length > 1 ? clauses.slice(0, MAX_INTENTS) : [];
}
