import type { EvalExpectation } from "./tasks-file.ts";

/**
 * Judges an answer: it must hold every `contains` text and match `matches`,
 * both case-insensitively (models capitalize freely). Returns what is wrong,
 * one entry per failed check; empty when the answer passes.
 */
export function checkAnswer(answer: string, expect: EvalExpectation): string[] {
  const failures: string[] = [];
  const lower = answer.toLowerCase();
  for (const text of expect.contains ?? []) {
    if (!lower.includes(text.toLowerCase())) failures.push(`missing "${text}"`);
  }
  // Validated when the tasks file was read.
  if (expect.matches !== undefined && !new RegExp(expect.matches, "iu").test(answer)) {
    failures.push(`no match for /${expect.matches}/`);
  }
  return failures;
}
