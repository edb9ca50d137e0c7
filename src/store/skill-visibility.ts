import { SkillError } from "./skill-error.ts";
import type { SaveSkillInput, SkillVisibility } from "./types.ts";

/** What a save checks of the skill's current head (its latest version), on either engine. */
export interface SkillHeadVisibility {
  visibility: SkillVisibility;
  owner_session: string | null;
}

/**
 * The visibility a save by `session` gets: a private name of another session
 * is taken, a shared skill cannot become private, a private skill needs a
 * session; without `input.visibility` a skill keeps what it had. Throws `SkillError`.
 */
export function checkSkillVisibility(
  input: SaveSkillInput,
  head: SkillHeadVisibility | undefined,
  session: string | null,
): SkillVisibility {
  if (head?.visibility === "private" && head.owner_session !== session) {
    throw new SkillError(
      "skill.name_taken",
      `a private skill named "${input.name}" belongs to another session; choose another name`,
      { name: input.name },
    );
  }
  const visibility = input.visibility ?? (head?.visibility === "private" ? "private" : "shared");
  if (visibility === "private" && head?.visibility === "shared") {
    throw new SkillError(
      "skill.visibility",
      `skill "${input.name}" is shared; a shared skill cannot become private`,
      {
        name: input.name,
      },
    );
  }
  if (visibility === "private" && session === null) {
    throw new SkillError("skill.visibility", `a private skill needs a session: "${input.name}"`, {
      name: input.name,
    });
  }
  return visibility;
}
