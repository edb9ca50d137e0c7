import { stem } from "./tokenize.ts";

/**
 * Words that software tools use interchangeably and a general dictionary does not
 * relate ("save" a file is "write" it). Each group is a set of mutual synonyms; they
 * expand a query like WordNet synonyms do (see lexicon.ts).
 */
const GROUPS: readonly string[] = [
  "save write store persist export",
  "delete remove erase drop destroy purge unlink",
  "get fetch retrieve obtain read load download",
  "find search query lookup look locate discover",
  "create make new add generate build insert",
  "update modify edit change patch set alter rename",
  "list enumerate show display browse",
  "run execute launch start invoke call trigger",
  "stop kill terminate cancel abort halt end",
  "send post publish share notify message",
  "upload push put publish",
  "open navigate visit goto browse",
  "image picture photo screenshot",
  "video clip movie film",
  "audio sound music song",
  "document doc file",
  "folder directory dir",
  "repository repo project",
  "issue ticket bug",
  "summary summarize summarise digest overview",
  "translate translation localize",
  "chart graph plot visualize visualization diagram",
  "spreadsheet sheet excel table csv",
  "slides presentation slideshow powerpoint deck",
  "email mail inbox",
  "calendar schedule event meeting appointment",
  "database db sql table",
  "webpage website page site url",
  "browser web playwright puppeteer",
  "log logs logging",
  "commit git version",
  "remember memorize memory recall",
  "fact observation knowledge",
  "person people entity individual",
  "relationship relation connection link",
  // Abbreviations tool names and descriptions use for the words requests spell out (only
  // where the word's stem is not also another common word's: "organ-ize", "specif-ic").
  "government gov",
  "information info",
  "wikipedia wiki",
  "configuration config",
  "application app",
  "message msg",
  "authentication auth login",
  "environment env",
  "parameter param argument arg",
  "statistics stats",
  "calculate calc calculator",
  "package pkg",
  "library lib",
  "description desc",
  "administrator admin",
  "geography geographic geo",
];

/**
 * Weight of a domain synonym (a WordNet synonym of the most frequent sense weighs
 * `RELATION_WEIGHTS.s`): a known equivalent, so above a guess at a word (`PARTIAL_MATCH_WEIGHT`).
 */
export const DOMAIN_SYNONYM_WEIGHT = 0.6;

let table: Map<string, string[]> | undefined;

/** Stem → stems it is interchangeable with in tool descriptions. */
export function domainSynonyms(term: string): readonly string[] {
  if (!table) {
    table = new Map();
    for (const group of GROUPS) {
      const stems = [...new Set(group.split(" ").map(stem))];
      for (const from of stems) {
        const related = table.get(from) ?? [];
        for (const to of stems) if (to !== from && !related.includes(to)) related.push(to);
        table.set(from, related);
      }
    }
  }
  return table.get(term) ?? [];
}
