import { englishGlossWords } from "./chinese-glosses.ts";
import { entityWords, impliedActions, withoutEncodedData, withoutLocations } from "./entities.ts";
import { MAX_DESCRIPTION_CHARS } from "./fields.ts";
import type { SearchDocument } from "./types.ts";

/**
 * The texts the word-vector embeddings are made of, for the index and for fitting the vectors
 * (scripts/search-data/tool-vectors/fit.ts) alike: a table fitted on other texts than those
 * it embeds would learn the wrong thing.
 */

/** Stages that can be switched off for ablations (bench/search-ablations.ts); all on by default. */
export interface EmbeddingStages {
  /** What paths, URLs and identifiers in a request imply (entities.ts). */
  readonly entities?: boolean;
  /** English glosses of Chinese words (chinese-glosses.ts). */
  readonly chineseGlosses?: boolean;
}

/** A document's: what its lexical fields index of its name and description. */
export function documentEmbeddingText(doc: SearchDocument, stages: EmbeddingStages = {}): string {
  return withGlosses(
    `${doc.server ?? ""} ${doc.name} ${doc.title ?? ""} ${doc.description.slice(0, MAX_DESCRIPTION_CHARS)}`,
    stages,
  );
}

/** A request's: its words outside paths and URLs, and what those imply. */
export function requestEmbeddingText(request: string, stages: EmbeddingStages = {}): string {
  const plain = withoutLocations(withoutEncodedData(request));
  return withGlosses(
    stages.entities === false ? plain : `${plain} ${impliedActions(request)} ${entityWords(request)}`,
    stages,
  );
}

/** The vectors are English, so Chinese counts by its English glosses. */
function withGlosses(text: string, stages: EmbeddingStages): string {
  const glosses = stages.chineseGlosses === false ? [] : englishGlossWords(text);
  return glosses.length > 0 ? `${text} ${glosses.join(" ")}` : text;
}
