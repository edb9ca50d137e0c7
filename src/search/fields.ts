import { actionsOf } from "./actions.ts";
import { englishGlossTerms } from "./chinese-glosses.ts";
import { compoundTerms, type RankOf } from "./compounds.ts";
import type { DomainTerms } from "./domain-terms.ts";
import { type RequestWords, toolText, toolWords } from "./request-words.ts";
import { terms } from "./tokenize.ts";
import type { SearchDocument } from "./types.ts";
import { memoByVocabulary } from "./vocabulary-memo.ts";

/**
 * BM25F fields of a document. `weight` is how much one occurrence counts relative to
 * the description; `refLength` is the typical length of the field in terms, against
 * which a long field's occurrences are discounted (`b`). Fixed references, rather
 * than corpus averages, keep a document's term weights independent of the rest of
 * the index, so adding or removing a server never re-weights the others.
 */
export interface FieldSpec {
  readonly name: string;
  readonly weight: number;
  readonly refLength: number;
  readonly b: number;
}

/**
 * Weight of the domainTerms field: a category a tool's product implies ("Trello" → board) is
 * less sure than what the tool says or is asked for (0.3 to 0.6 measured alike on the folds).
 */
export const DOMAIN_TERMS_FIELD_WEIGHT = 0.3;

/**
 * Weight of the similarTools field: words borrowed from other tools' requests are less sure
 * than the tool's own request words (0.3 to 0.5 measured alike on the folds; 0.8 less).
 */
export const SIMILAR_TOOLS_FIELD_WEIGHT = 0.4;

/** What a document is indexed with beside its own text; each part is left out when not given. */
export interface FieldSources {
  /** A vocabulary: an identifier written as one word also gives the words it joins. */
  readonly rankOf?: RankOf;
  readonly requestWords?: RequestWords;
  /** The document's own stems (`toolWords`), when the caller has them already. */
  readonly ownWords?: ReadonlySet<string>;
  /** `false` leaves the translation field empty (for ablations). */
  readonly chineseGlosses?: boolean;
  readonly domainTerms?: DomainTerms;
  /** The words requests use for the known tools most like this one (similar-tools.ts). */
  readonly similarToolWords?: readonly string[];
}

export const FIELDS: readonly FieldSpec[] = [
  { name: "name", weight: 3, refLength: 3, b: 0.3 },
  { name: "title", weight: 2, refLength: 3, b: 0.3 },
  { name: "server", weight: 1, refLength: 2, b: 0.3 },
  { name: "description", weight: 1, refLength: 25, b: 0.75 },
  { name: "paramNames", weight: 0.6, refLength: 5, b: 0.5 },
  { name: "paramDescriptions", weight: 0.35, refLength: 30, b: 0.75 },
  { name: "serverDescription", weight: 0.4, refLength: 20, b: 0.75 },
  { name: "annotations", weight: 0.3, refLength: 2, b: 0.3 },
  // English glosses of the Chinese in name, title and descriptions (see chinese-glosses.ts): a
  // dictionary translation is looser than the tool's own words (0.6 to 1 measured alike).
  { name: "translation", weight: 0.8, refLength: 20, b: 0.75 },
  // The actions the name says (actions.ts): a match counts on top of the verb's own.
  { name: "action", weight: 1, refLength: 1, b: 0 },
  // The words requests use for what the tool's own words name (see request-words.ts): learned,
  // so weighed like the server's description, below the tool's own words.
  { name: "requestWords", weight: 0.4, refLength: 20, b: 0.75 },
  // What the tool's products and abbreviations stand for (domain-terms.ts).
  { name: "domainTerms", weight: DOMAIN_TERMS_FIELD_WEIGHT, refLength: 10, b: 0.5 },
  // The words requests use for the known tools most like this one (similar-tools.ts): what
  // other tools are asked for, so below what this tool's own words predict.
  { name: "similarTools", weight: SIMILAR_TOOLS_FIELD_WEIGHT, refLength: 12, b: 0.5 },
];

/** Words in server names that say nothing about what a server does. */
const SERVER_NOISE = new Set(["mcp", "server", "servers"]);

/**
 * Text indexed per description, and per parameter description: what a tool does is
 * said first; the rest of a very long text (examples, error tables) adds indexing
 * time and noise, not meaning.
 */
export const MAX_DESCRIPTION_CHARS = 2_000;
export const MAX_PARAM_DESCRIPTION_CHARS = 300;

/**
 * An identifier's terms, and those of the words it joins ("datagov" → data, gov). Worked out
 * once per vocabulary: names recur (a server's name on each of its tools, `path` and `query`
 * as parameters of many).
 */
const identifierTerms = memoByVocabulary((text, rankOf): readonly string[] => [
  ...terms(text),
  ...compoundTerms(text, rankOf),
]);

/**
 * The terms of each field of `FIELDS`, in the same order. With `rankOf` (a vocabulary), an
 * identifier written as one word also gives the words it joins ("datagov" → data, gov);
 * `chineseGlosses: false` leaves the translation field empty (for ablations).
 */
export function documentFields(
  doc: SearchDocument,
  {
    rankOf,
    requestWords,
    ownWords,
    chineseGlosses = true,
    domainTerms,
    similarToolWords = [],
  }: FieldSources = {},
): (readonly string[])[] {
  const identifier = (text: string) => (rankOf ? identifierTerms(text, rankOf) : terms(text));
  const description = doc.description.slice(0, MAX_DESCRIPTION_CHARS);
  const paramDescriptions = doc.params.map((param) =>
    (param.description ?? "").slice(0, MAX_PARAM_DESCRIPTION_CHARS),
  );
  return [
    identifier(doc.name),
    terms(doc.title ?? ""),
    identifier(doc.server ?? "").filter((term) => !SERVER_NOISE.has(term)),
    terms(description),
    doc.params.flatMap((param) => identifier(param.name)),
    paramDescriptions.flatMap((text) => terms(text)),
    terms((doc.serverDescription ?? "").slice(0, MAX_DESCRIPTION_CHARS)),
    (doc.annotations ?? []).flatMap((annotation) => terms(annotation)),
    chineseGlosses
      ? [doc.name, doc.title ?? "", description, ...paramDescriptions].flatMap((text) =>
          englishGlossTerms(text),
        )
      : [],
    [...new Set(terms(doc.name).flatMap(actionsOf))],
    requestWords ? requestWords.expand(ownWords ?? toolWords(doc)) : [],
    domainTerms ? domainTerms.documentTerms(toolText(doc)) : [],
    similarToolWords,
  ];
}

/** BM25 term-frequency saturation. */
export const BM25_K1 = 1.2;

/**
 * The BM25F weight of every term of a document, in 0..1: field frequencies
 * length-normalised, weighted, summed, then saturated.
 */
export function termWeights(doc: SearchDocument, sources: FieldSources = {}): Map<string, number> {
  const pseudo = new Map<string, number>();
  documentFields(doc, sources).forEach((fieldTerms, index) => {
    const spec = FIELDS[index];
    if (!spec || fieldTerms.length === 0) return;
    const norm = 1 - spec.b + (spec.b * fieldTerms.length) / spec.refLength;
    const unit = spec.weight / norm;
    for (const term of fieldTerms) pseudo.set(term, (pseudo.get(term) ?? 0) + unit);
  });
  const weights = new Map<string, number>();
  for (const [term, tf] of pseudo) weights.set(term, tf / (BM25_K1 + tf));
  return weights;
}
