import type { SkillVersion } from "../store/types.ts";
import { importableNames, importLine } from "./skill-documents.ts";

/** Every skill's manifest, at the root of its folder (SEP-2640, Agent Skills). */
export const SKILL_MANIFEST = "SKILL.md";
/** The Agent Skills limit on a frontmatter description, in characters (code points). */
export const MAX_FRONTMATTER_DESCRIPTION = 1024;
const SCRIPTS = "scripts";
const REFERENCES = "references";

const COMPATIBILITY =
  "A ToolScript skill: it runs only inside programs sent to the execute_code tool of the ToolScript server that serves it.";

/** A saved skill as an Agent Skills folder: relative path → text. */
export interface McpSkillFolder {
  /** The published name (see mcpSkillNames): the folder's name and the frontmatter `name`. */
  name: string;
  /** The frontmatter `description`: the skill's description, cut to 1024 characters. */
  description: string;
  /** `SKILL.md`, `scripts/index.ts|py` (the code), `references/index.d.ts|pyi` (the declaration). */
  files: Record<string, string>;
}

/**
 * The folder a saved skill is published as over the skills extension:
 * `SKILL.md` (frontmatter `name`, `description`, `compatibility`, and
 * `metadata` with the ToolScript name, language and version; the body tells
 * how a program imports it), its code under `scripts/` and its declaration
 * under `references/`, the Agent Skills layout. Only text; nothing runs here.
 */
export function mcpSkillFolder(skill: SkillVersion, publishedName: string): McpSkillFolder {
  const python = skill.language === "python";
  const code = `${SCRIPTS}/${python ? "index.py" : "index.ts"}`;
  const declaration = `${REFERENCES}/${python ? "index.pyi" : "index.d.ts"}`;
  const description = frontmatterDescription(skill.description);
  const frontmatter = [
    "---",
    `name: ${yamlString(publishedName)}`,
    `description: ${yamlString(description)}`,
    `compatibility: ${yamlString(COMPATIBILITY)}`,
    "metadata:",
    `  toolscript-name: ${yamlString(skill.name)}`,
    `  toolscript-language: ${yamlString(skill.language)}`,
    `  toolscript-version: ${yamlString(String(skill.version))}`,
    `  toolscript-visibility: ${yamlString(skill.visibility)}`,
    "---",
  ];
  const line = importLine(skill, importableNames(skill));
  const body = [
    `# ${skill.name}`,
    "",
    skill.description.trim(),
    "",
    "## How to use it",
    "",
    `A ${python ? "Python" : "TypeScript"} module saved with ToolScript's \`save_skill\` (version ${skill.version}, ${skill.visibility}). It calls tools through the gateway, so it runs only inside a program sent to the \`execute_code\` tool${python ? ' with `language: "python"`' : ""}:`,
    "",
    ...(line ? [`\`\`\`${python ? "python" : "ts"}`, line, "```", ""] : []),
    `- Declaration: [${declaration}](${declaration})`,
    `- Code: [${code}](${code})`,
    "",
  ];
  return {
    name: publishedName,
    description,
    files: {
      [SKILL_MANIFEST]: `${frontmatter.join("\n")}\n\n${body.join("\n")}`,
      [code]: skill.code.endsWith("\n") ? skill.code : `${skill.code}\n`,
      [declaration]: skill.declaration.endsWith("\n") ? skill.declaration : `${skill.declaration}\n`,
    },
  };
}

/** The MIME type of a file of a skill folder, by its extension. */
export function mcpSkillFileMimeType(path: string): string {
  if (path.endsWith(".md")) return "text/markdown";
  if (path.endsWith(".ts")) return "text/typescript";
  if (path.endsWith(".py") || path.endsWith(".pyi")) return "text/x-python";
  return "text/plain";
}

/** The description, whitespace-trimmed, cut at a word to at most 1024 characters. */
function frontmatterDescription(description: string): string {
  const text = description.trim();
  const chars = Array.from(text);
  if (chars.length <= MAX_FRONTMATTER_DESCRIPTION) return text || "A saved ToolScript skill.";
  const cut = chars.slice(0, MAX_FRONTMATTER_DESCRIPTION - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > MAX_FRONTMATTER_DESCRIPTION / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A YAML double-quoted scalar: JSON's escapes are YAML's, so any reader gets
 * the string back exactly. The characters YAML 1.1 readers take for line
 * breaks are escaped too, and lone surrogates (which no YAML escape can
 * carry) are replaced.
 */
function yamlString(text: string): string {
  const wellFormed = text.replace(LONE_SURROGATE, "\uFFFD");
  return JSON.stringify(wellFormed).replace(
    /[\u0085\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
