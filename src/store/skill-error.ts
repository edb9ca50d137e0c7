import { CodedError } from "../errors/coded-error.ts";

/**
 * - `skill.bad_name`: not a valid skill name (it becomes an import path, `skills/<name>`).
 * - `skill.name_taken`: another session owns a private skill of that name.
 * - `skill.visibility`: a shared skill cannot become private, or a private one has no session.
 * - `skill.not_found`: no such skill (or version) visible to the caller.
 * - `skill.bad_export`: an exported skill folder is incomplete or malformed; `data.path` names the file.
 */
export type SkillErrorCode =
  | "skill.bad_name"
  | "skill.name_taken"
  | "skill.visibility"
  | "skill.not_found"
  | "skill.bad_export";

export class SkillError extends CodedError<SkillErrorCode> {
  override readonly name = "SkillError";
}
