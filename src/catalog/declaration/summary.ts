/** Length of a one-line tool summary in listings and search answers. */
export const DEFAULT_SUMMARY_MAX_CHARS = 120;

/** A sentence ends at `.`, `!` or `?` followed by whitespace and a capital, digit or opening mark, or at the end. */
const SENTENCE_END = /[.!?](?=\s+[\p{Lu}\p{N}"'`([]|\s*$)/u;

/**
 * The first line, joined with the next ones only while a sentence visibly runs on
 * (a line ending in a lowercase letter or comma, followed by one starting lowercase):
 * a line break usually separates a summary from details like "Error Responses:".
 */
function firstLogicalLine(description: string): string {
  const lines = description.trim().split(/\r?\n/);
  let text = lines[0] ?? "";
  for (const line of lines.slice(1)) {
    const next = line.trim();
    if (!/[a-z,]$/.test(text.trimEnd()) || !/^[a-z]/.test(next)) break;
    text = `${text.trimEnd()} ${next}`;
  }
  return text;
}

/**
 * The first sentence of the first line (see above), at most `maxChars` characters
 * (cut at a word boundary with `…` when longer).
 */
export function firstSentence(description: string, maxChars = DEFAULT_SUMMARY_MAX_CHARS): string {
  const oneLine = firstLogicalLine(description).replace(/\s+/g, " ").trim();
  const end = SENTENCE_END.exec(oneLine);
  const sentence = end ? oneLine.slice(0, end.index + 1) : oneLine;
  if (sentence.length <= maxChars) return sentence;
  const limit = Math.max(1, maxChars - 1);
  const cut = sentence.slice(0, limit);
  const space = cut.lastIndexOf(" ");
  const words = space > limit / 2 ? cut.slice(0, space) : cut;
  return `${words.replace(/[\s,;:.!?-]+$/, "")}…`;
}
