/**
 * The TypeScript module in a model's answer: the fenced block that has the
 * default export (models add prose and other snippets around it), else the
 * first fenced block, else the whole answer when it reads as code.
 */
const FENCE = /```[ \t]*([A-Za-z]*)[^\n]*\n([\s\S]*?)```/g;
const DEFAULT_EXPORT = /\bexport\s+default\b/;

export function extractModule(answer: string): string | undefined {
  const blocks = [...answer.matchAll(FENCE)]
    .filter((match) => ["", "ts", "typescript", "js", "javascript"].includes((match[1] ?? "").toLowerCase()))
    .map((match) => (match[2] ?? "").trim());
  const withDefault = blocks.find((block) => DEFAULT_EXPORT.test(block));
  if (withDefault) return withDefault;
  if (blocks.length > 0) return blocks[0];
  const whole = answer.trim();
  return DEFAULT_EXPORT.test(whole) ? whole : undefined;
}
