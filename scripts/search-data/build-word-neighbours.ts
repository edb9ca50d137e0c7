// Regenerates `data/search/word-neighbours.txt` from the shipped word vectors
// (`data/search/word-vectors.bin`), so it needs nothing but this repository:
//   node --import tsx scripts/search-data/build-word-neighbours.ts
// For every stem of the vocabulary, the stems whose vectors are closest to it ("bitcoin" →
// cryptocurr, "shoe" → sneaker, footwear). A query term is then expanded by a look-up, as with
// the WordNet lexicon, but with relations WordNet lacks (newer words, topical neighbours).
// About five minutes (one core).
import { writeFileSync } from "node:fs";
import { stem, terms } from "../../src/search/tokenize.ts";
import { generalWordVectors } from "../../src/search/word-vectors.ts";

/** Neighbours kept per stem, closest first. */
const MAX_NEIGHBOURS = 3;
/** Cosine below which two stems are not neighbours (64 dimensions make cosines run high). */
const MIN_COSINE = 0.72;

const log = (line: string) => process.stderr.write(`[word-neighbours] ${line}\n`);
const vectors = generalWordVectors();
if (!vectors) throw new Error("data/search/word-vectors.bin is missing: see build-word-vectors.ts");

// Every word form of a stem, most frequent first (the table lists words by frequency).
const forms = new Map<string, string[]>();
for (const word of vectors.words) {
  const [only, ...more] = terms(word);
  if (only === undefined || more.length > 0 || !/^[a-z]{3,}$/.test(word) || stem(word) !== only) continue;
  const list = forms.get(only);
  if (list) list.push(word);
  else forms.set(only, [word]);
}
const stems = [...forms.keys()];
const d = vectors.dimensions;
// A stem's vector: the embedding of its forms together (each weighted by rarity, see embed).
const matrix = new Float32Array(stems.length * d);
const row = new Float32Array(d);
for (const [i, s] of stems.entries()) {
  if (vectors.embed((forms.get(s) ?? []).join(" "), row)) matrix.set(row, i * d);
}
// Every stem is a candidate neighbour: the rare ones are where newer words meet the ones tools
// use ("bitcoin" → litecoin, cryptocurr; "nvidia" → gpu).
log(`${stems.length} stems`);

const targets = stems.length;
const lines: string[] = [];
const best: { index: number; cosine: number }[] = [];
const started = Date.now();
for (let i = 0; i < stems.length; i++) {
  best.length = 0;
  const a = i * d;
  for (let j = 0; j < targets; j++) {
    if (j === i) continue;
    const b = j * d;
    let dot = 0;
    for (let k = 0; k < d; k++) dot += (matrix[a + k] ?? 0) * (matrix[b + k] ?? 0);
    if (dot < MIN_COSINE) continue;
    if (best.length === MAX_NEIGHBOURS && dot <= (best[MAX_NEIGHBOURS - 1]?.cosine ?? 0)) continue;
    best.push({ index: j, cosine: dot });
    best.sort((x, y) => y.cosine - x.cosine);
    if (best.length > MAX_NEIGHBOURS) best.pop();
  }
  if (best.length > 0) {
    const related = best.map((n) => `${stems[n.index]}:${Math.round(n.cosine * 100)}`);
    lines.push(`${stems[i]}\t${related.join(" ")}`);
  }
  if (i % 5000 === 0) log(`${i}/${stems.length} stems, ${Date.now() - started} ms`);
}

const header = `# Nearest stems by word vector (scripts/search-data/build-word-neighbours.ts), cosine in percent; do not edit.
# Derived from word-vectors.bin (Apache-2.0, see README.md in this folder).
`;
writeFileSync(
  new URL("../../data/search/word-neighbours.txt", import.meta.url),
  `${header}${lines.join("\n")}\n`,
);
log(`${lines.length} stems with neighbours, ${Date.now() - started} ms`);
