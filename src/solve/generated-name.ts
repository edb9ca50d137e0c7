import { createHash } from "node:crypto";

/** Words of a task kept in its generated tool's name. */
const NAME_WORDS = 4;
/** Characters kept of each word: the name stays under the 64 a skill name may have. */
const WORD_CHARS = 10;
const STOP = new Set([
  "a",
  "an",
  "the",
  "of",
  "to",
  "in",
  "for",
  "and",
  "on",
  "with",
  "from",
  "by",
  "all",
  "each",
]);

/**
 * A skill name for a generated tool: `gen-` + a few words of the task + a
 * short hash of the whole task, so two tasks never share a name and the name
 * says what it does (`gen-sum-order-totals-3f9a1c`).
 */
export function generatedSkillName(task: string): string {
  const words = task
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9\s]+/g, " ")
    .split(/\s+/)
    .filter((word) => word !== "" && !STOP.has(word))
    .slice(0, NAME_WORDS)
    .map((word) => word.slice(0, WORD_CHARS));
  const hash = createHash("sha256").update(normalizeTask(task)).digest("hex").slice(0, 6);
  return ["gen", ...words, hash].join("-");
}

/** The same task however it is spaced or cased: the key of the generated-tools cache. */
export function normalizeTask(task: string): string {
  return task.trim().toLowerCase().replace(/\s+/g, " ");
}
