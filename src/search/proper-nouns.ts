import { terms } from "./tokenize.ts";

/**
 * The query's names: Capitalised words inside a sentence ("Apple's stock", "ask Alice",
 * "on Amazon"). A name is matched as written and never expanded to related words: the
 * dictionary neighbours of "apple" are fruits and those of "alice" other first names.
 */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const SENTENCE_END = new Set([".", "!", "?", ":", ";"]);
const CAPITALISED = /^\p{Lu}\p{Ll}/u;

/** Stems of the Capitalised words of `text` that do not start a sentence. */
export function nameTerms(text: string): Set<string> {
  const names = new Set<string>();
  let words = 0;
  let capitalised = 0;
  for (const match of text.matchAll(WORD)) {
    if (startsSentence(text, match.index)) continue;
    words++;
    const word = match[0];
    if (!CAPITALISED.test(word)) continue;
    capitalised++;
    for (const term of terms(word)) names.add(term);
  }
  // Title Case Text capitalises most words: then capitals say nothing.
  return capitalised * 2 > words ? new Set() : names;
}

/** Whether the word at `at` opens the text, a line or a sentence (looks back over spaces only). */
function startsSentence(text: string, at: number): boolean {
  let before = at - 1;
  while (before >= 0 && /\s/.test(text.charAt(before))) {
    if (text.charAt(before) === "\n") return true;
    before--;
  }
  return before < 0 || SENTENCE_END.has(text.charAt(before));
}
