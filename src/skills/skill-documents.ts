import { firstSentence } from "../catalog/declaration/summary.ts";
import type { SearchDocument, SearchHit } from "../search/index.ts";
import type { ToolMatch } from "../search/tool-results.ts";
import type { SkillLanguage, SkillVersion } from "../store/types.ts";
import { pythonDeclaredExports } from "./python-skill.ts";
import { pythonModuleName } from "./python-skill-modules.ts";
import { declaredExports } from "./skill-exports.ts";

/** Where skills live in the virtual tree and in search answers: `skills/<name>`. */
export const SKILLS_FOLDER = "skills";

export function skillPath(name: string): string {
  return `${SKILLS_FOLDER}/${name}`;
}

/** What a program can import from a skill: its value exports (TypeScript), or its functions (Python). */
export function skillExports(skill: Pick<SkillVersion, "declaration" | "language">): {
  names: string[];
  types: string[];
} {
  if (skill.language === "python") return { names: pythonDeclaredExports(skill.declaration), types: [] };
  return declaredExports(skill.declaration);
}

/** The names a program imports from a skill by name: its value exports but `default`. */
export function importableNames(skill: Pick<SkillVersion, "declaration" | "language">): string[] {
  const { names, types } = skillExports(skill);
  return names.filter((name) => name !== "default" && !types.includes(name));
}

/** How a skill is listed: `skills/<name> (python)`; TypeScript, the default, unmarked. */
export function skillLabel(skill: Pick<SkillVersion, "name" | "language">): string {
  return skill.language === "python" ? `${skillPath(skill.name)} (python)` : skillPath(skill.name);
}

/** A skill as a search document, ranked with the tools: its name, description and exported names. */
export function skillDocument(skill: SkillVersion): SearchDocument {
  const { names, types } = skillExports(skill);
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
  const { names, types } = skillExports(skill);
  return {
    result: {
      server: SKILLS_FOLDER,
      tool: skill.name,
      path: skillPath(skill.name),
      description: firstSentence(skill.description),
      score,
      matched: [...(hit.matched ?? [])],
    },
    skill: {
      name: hit.name,
      declaration: skill.declaration,
      exports: names.filter((name) => !types.includes(name)),
      language: skill.language,
      ...(skill.language === "python" && { module: pythonModuleName(skill.name) }),
    },
  };
}

/** The import line for a skill in its own language, or "" when it exports nothing to import. */
export function importLine(skill: SkillVersion, values: readonly string[]): string {
  if (values.length === 0) return "";
  if (skill.language === "python")
    return `from skills.${pythonModuleName(skill.name)} import ${values.join(", ")}`;
  return `import { ${values.join(", ")} } from "${skillPath(skill.name)}";`;
}

/**
 * What describe_tools and `toolscript://skills/<name>.ts|.py` show: how to import it, the
 * description, the declaration — in the skill's own language (a program imports only skills
 * of its language: asked for the other one, a line says so).
 */
export function renderSkillDeclaration(
  skill: SkillVersion,
  options: { language?: SkillLanguage | undefined } = {},
): string {
  const python = skill.language === "python";
  const comment = python ? "#" : "//";
  const line = importLine(skill, importableNames(skill));
  const header = `${comment} ${skillPath(skill.name)} (version ${skill.version}, ${skill.visibility}${skill.authorSession ? `, by session ${skill.authorSession}` : ""}${python ? ", Python" : ""})`;
  const mismatch =
    options.language !== undefined && options.language !== skill.language
      ? [
          python
            ? "# A Python skill: TypeScript programs cannot import it."
            : "// A TypeScript skill: Python programs cannot import it.",
        ]
      : [];
  const description = skill.description.trim().split("\n");
  const doc = python
    ? description.map((text) => `# ${text}`.trimEnd())
    : [`/**\n${description.map((text) => ` * ${text}`.trimEnd()).join("\n")}\n */`];
  return [
    header,
    ...mismatch,
    ...(line ? [`${comment} ${line}`] : []),
    ...doc,
    skill.declaration.trimEnd(),
    "",
  ].join("\n");
}
