import { SkillError } from "./skill-error.ts";

export const MAX_SKILL_NAME_LENGTH = 64;

// A path segment in `skills/<name>` and a folder name on every OS: no dots, slashes or case tricks beyond ASCII.
const SKILL_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** Throws `skill.bad_name` unless `name` is a valid skill name. */
export function assertSkillName(name: string): void {
  if (name.length === 0 || name.length > MAX_SKILL_NAME_LENGTH || !SKILL_NAME.test(name)) {
    throw new SkillError(
      "skill.bad_name",
      `invalid skill name ${JSON.stringify(name)}: use 1-${MAX_SKILL_NAME_LENGTH} letters, digits, "_" or "-", starting with a letter`,
      { name },
    );
  }
}
