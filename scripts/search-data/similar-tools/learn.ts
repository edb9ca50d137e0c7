// The known tools of data/search/similar-tools.tsv (src/search/similar-tools.ts): each tool of
// the training corpus with its embedding, its requests' mean embedding (the format scales it to
// unit length) and the stems its requests use, weighted by how often
// (over the square root of the tool's request stems, so a tool with many requests does not
// outweigh one with few) and how rare among all requests (ln N/df, so "show" and "all" lend
// nothing); ids and numbers are left out. Used by build-similar-tools.ts for the shipped table, and by
// `npm run bench -- search-corpus` once per split by server (its test servers left out).
import { documentEmbeddingText, requestEmbeddingText } from "../../../src/search/embedded-text.ts";
import { formatKnownTool } from "../../../src/search/similar-tools.ts";
import { terms } from "../../../src/search/tokenize.ts";
import type { SearchDocument } from "../../../src/search/types.ts";
import type { WordVectors } from "../../../src/search/word-vectors.ts";

/** A request and the tool it was written for. */
export interface ToolRequest {
  readonly request: string;
  readonly tool: string;
}

/** A stem worth lending: letters only (ids and counts in requests name no need). */
const WORD = /^\p{L}{2,}$/u;

/** Stems kept per known tool, strongest first. */
export const STEMS_PER_TOOL = 30;

/**
 * Table lines (see `formatKnownTool`) for every tool of `requests` that `vectors` can embed,
 * sorted by tool id.
 */
export function learnSimilarTools(
  requests: readonly ToolRequest[],
  documents: ReadonlyMap<string, SearchDocument>,
  vectors: WordVectors,
): string[] {
  const counts = new Map<string, Map<string, number>>();
  const requestsWith = new Map<string, number>();
  const meanings = new Map<string, Float32Array>();
  const meaning = new Float32Array(vectors.dimensions);
  for (const { request, tool } of requests) {
    if (vectors.embed(requestEmbeddingText(request), meaning)) {
      const sum = meanings.get(tool) ?? new Float32Array(vectors.dimensions);
      meanings.set(tool, sum);
      for (let k = 0; k < sum.length; k++) sum[k] = (sum[k] ?? 0) + (meaning[k] ?? 0);
    }
    const stems = new Set(terms(request));
    const row = counts.get(tool) ?? new Map<string, number>();
    counts.set(tool, row);
    for (const stem of stems) {
      if (!WORD.test(stem)) continue;
      row.set(stem, (row.get(stem) ?? 0) + 1);
      requestsWith.set(stem, (requestsWith.get(stem) ?? 0) + 1);
    }
  }
  const lines: string[] = [];
  const vector = new Float32Array(vectors.dimensions);
  for (const tool of [...counts.keys()].sort()) {
    const doc = documents.get(tool);
    if (!doc) throw new Error(`similar tools: no tool ${tool} in the documents`);
    if (!vectors.embed(documentEmbeddingText(doc), vector)) continue;
    const row = counts.get(tool) ?? new Map<string, number>();
    let total = 0;
    for (const count of row.values()) total += count;
    const stems = [...row]
      .map(([stem, count]): [string, number] => [
        stem,
        (count / Math.sqrt(total)) * Math.log(requests.length / (requestsWith.get(stem) ?? 1)),
      ])
      .filter(([, weight]) => weight > 0)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, STEMS_PER_TOOL);
    if (stems.length > 0)
      lines.push(formatKnownTool(tool, { vector, stems, requestVector: meanings.get(tool) }));
  }
  return lines;
}
