import { firstSentence } from "../catalog/declaration/summary.ts";
import type { SearchDocument, SearchHit } from "../search/index.ts";
import type { ToolMatch } from "../search/tool-results.ts";
import type { SkillVersion } from "../store/types.ts";
import { declaredExports } from "./skill-exports.ts";

/** Where skills live in the virtual tree and in search answers: `skills/<name>`. */
export const SKILLS_FOLDER = "skills";

export function skillPath(name: string): string {
  return `${SKILLS_FOLDER}/${name}`;
}

/** A skill as a search document, ranked with the tools: its name, description and exported names. */
export function skillDocument(skill: SkillVersion): SearchDocument {
  const { names, types } = declaredExports(skill.declaration);
  return {
    id: skillPath(skill.name),
    kind: "skill",
    name: skill.name,
    description: skill.description,
    params: names.filter((name) => name !== "default" && !types.includes(name)).map((name) => ({ name })),
  };
}

/** A search hit on a skill as a result: `server` is "skills", `path` the import path. */
export function skillMatch(skill: SkillVersion, hit: SearchHit, score: number): ToolMatch {
  const { names, types } = declaredExports(skill.declaration);
  return {
    result: {
      server: SKILLS_FOLDER,
      tool: skill.name,
      path: skillPath(skill.name),
      description: firstSentence(skill.description),
      score,
    },
    skill: {
      name: hit.name,
      declaration: skill.declaration,
      exports: names.filter((name) => !types.includes(name)),
    },
  };
}

/** What describe_tools and `toolscript://skills/<name>.ts` show: how to import it, the description, the declaration. */
export function renderSkillDeclaration(skill: SkillVersion): string {
  const { names, types } = declaredExports(skill.declaration);
  const values = names.filter((name) => name !== "default" && !types.includes(name));
  const importLine =
    values.length > 0 ? `import { ${values.join(", ")} } from "${skillPath(skill.name)}";` : "";
  const description = skill.description
    .trim()
    .split("\n")
    .map((line) => ` * ${line}`.trimEnd())
    .join("\n");
  return [
    `// ${skillPath(skill.name)} (version ${skill.version}, ${skill.visibility}${skill.authorSession ? `, by session ${skill.authorSession}` : ""})`,
    ...(importLine ? [`// ${importLine}`] : []),
    `/**\n${description}\n */`,
    skill.declaration.trimEnd(),
    "",
  ].join("\n");
}
