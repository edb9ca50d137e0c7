import { englishGlossWords } from "./chinese-glosses.ts";
import { entityWords, impliedActions, withoutEncodedData, withoutLocations } from "./entities.ts";
import { MAX_DESCRIPTION_CHARS } from "./fields.ts";
import type { SearchDocument } from "./types.ts";

/**
 * The texts the word-vector embeddings are made of, for the index and for fitting the vectors
 * (scripts/search-data/tool-vectors/fit.ts) alike: a table fitted on other texts than those
 * it embeds would learn the wrong thing.
 */

/** A document's: what its lexical fields index of its name and description. */
export function documentEmbeddingText(doc: SearchDocument): string {
  return withGlosses(
    `${doc.server ?? ""} ${doc.name} ${doc.title ?? ""} ${doc.description.slice(0, MAX_DESCRIPTION_CHARS)}`,
  );
}

/** A request's: its words outside paths and URLs, and what those imply. */
export function requestEmbeddingText(request: string): string {
  return withGlosses(
    `${withoutLocations(withoutEncodedData(request))} ${impliedActions(request)} ${entityWords(request)}`,
  );
}

/** The vectors are English, so Chinese counts by its English glosses. */
function withGlosses(text: string): string {
  const glosses = englishGlossWords(text);
  return glosses.length > 0 ? `${text} ${glosses.join(" ")}` : text;
}
