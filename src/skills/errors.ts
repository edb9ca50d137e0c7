/**
 * - `skill.syntax`: the code does not parse.
 * - `skill.type`: it parses but does not type-check against the tools' and other skills' declarations.
 * - `skill.import`: it imports something other than `skills/<name>`, or a skill that does not exist.
 * - `skill.not_found`: no such skill visible to the caller.
 * - `skill.unavailable`: the gateway has no store (not started).
 * `data.line`/`data.column` (1-based) locate the first problem in the skill's code.
 */
export type SkillCheckErrorCode =
  | "skill.syntax"
  | "skill.type"
  | "skill.import"
  | "skill.not_found"
  | "skill.unavailable";

export class SkillCheckError extends Error {
  override readonly name = "SkillError";
  readonly code: SkillCheckErrorCode;
  readonly data: { name: string; line?: number; column?: number; [key: string]: unknown };

  constructor(
    code: SkillCheckErrorCode,
    message: string,
    data: { name: string; line?: number; column?: number; [key: string]: unknown },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
    this.data = data;
  }
}
