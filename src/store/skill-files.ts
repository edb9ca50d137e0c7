import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SkillStore } from "./domains.ts";
import { SkillError } from "./skill-error.ts";
import { parseSkillMarkdown, renderSkillMarkdown } from "./skill-markdown.ts";
import { assertSkillName } from "./skill-name.ts";
import type { SkillLanguage, SkillVersion, SkillViewer, SkillVisibility } from "./types.ts";

/** Files of one exported skill, in `<dir>/<name>/` (a Python skill: `index.py` and `index.pyi`). */
export const SKILL_CODE_FILE = "index.ts";
export const SKILL_DESCRIPTION_FILE = "SKILL.md";
export const SKILL_DECLARATION_FILE = "index.d.ts";
export const SKILL_METADATA_FILE = "skill.json";
export const PYTHON_SKILL_CODE_FILE = "index.py";
export const PYTHON_SKILL_DECLARATION_FILE = "index.pyi";

function filesOf(language: SkillLanguage): { code: string; declaration: string } {
  return language === "python"
    ? { code: PYTHON_SKILL_CODE_FILE, declaration: PYTHON_SKILL_DECLARATION_FILE }
    : { code: SKILL_CODE_FILE, declaration: SKILL_DECLARATION_FILE };
}

/** A skill as read back from files: what `save_skill` needs, and the metadata it was exported with. */
export interface ExportedSkill {
  name: string;
  code: string;
  description: string;
  /** The exported declaration, when the folder has one; a fresh one should be derived from `code` anyway. */
  declaration?: string | undefined;
  /** `python` when the folder holds `index.py`. */
  language: SkillLanguage;
  version?: number | undefined;
  visibility?: SkillVisibility | undefined;
  /** The folder it was read from. */
  dir: string;
}

/** Writes the latest version of each skill as `<dir>/<name>/{SKILL.md,index.ts,index.d.ts,skill.json}` (`index.py`, `index.pyi` for Python). */
export function writeSkillFolders(dir: string, skills: readonly SkillVersion[]): string[] {
  const written: string[] = [];
  for (const skill of skills) {
    const folder = join(dir, skill.name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, SKILL_DESCRIPTION_FILE), renderSkillMarkdown(skill.name, skill.description));
    const files = filesOf(skill.language);
    writeFileSync(join(folder, files.code), skill.code.endsWith("\n") ? skill.code : `${skill.code}\n`);
    writeFileSync(join(folder, files.declaration), skill.declaration);
    const metadata = {
      name: skill.name,
      language: skill.language,
      version: skill.version,
      visibility: skill.visibility,
      authorSession: skill.authorSession,
      createdAt: new Date(skill.createdAt).toISOString(),
    };
    writeFileSync(join(folder, SKILL_METADATA_FILE), `${JSON.stringify(metadata, null, 2)}\n`);
    written.push(folder);
  }
  return written;
}

/** Exports every skill `viewer` sees (shared ones by default); returns the folders written. */
export async function exportSkills(
  store: SkillStore,
  dir: string,
  viewer: SkillViewer = {},
): Promise<string[]> {
  return writeSkillFolders(dir, await store.list(viewer));
}

/** Reads every `<dir>/<name>/` that holds an `index.ts` or `index.py`, sorted by name. Throws `skill.bad_export`. */
export function readSkillFolders(dir: string): ExportedSkill[] {
  if (!existsSync(dir)) {
    throw new SkillError("skill.bad_export", `no skills folder at ${dir}`, { path: dir });
  }
  return readdirSync(dir, { withFileTypes: true })
    .filter(
      (entry) =>
        entry.isDirectory() &&
        (existsSync(join(dir, entry.name, SKILL_CODE_FILE)) ||
          existsSync(join(dir, entry.name, PYTHON_SKILL_CODE_FILE))),
    )
    .map((entry) => readSkillFolder(join(dir, entry.name), entry.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function readSkillFolder(folder: string, name: string): ExportedSkill {
  try {
    assertSkillName(name);
  } catch (error) {
    throw new SkillError("skill.bad_export", `skill folder ${folder}: ${(error as Error).message}`, {
      path: folder,
    });
  }
  const language: SkillLanguage = existsSync(join(folder, PYTHON_SKILL_CODE_FILE)) ? "python" : "typescript";
  if (language === "python" && existsSync(join(folder, SKILL_CODE_FILE))) {
    throw new SkillError(
      "skill.bad_export",
      `skill folder "${name}" holds both ${SKILL_CODE_FILE} and ${PYTHON_SKILL_CODE_FILE}; a skill is one or the other`,
      { path: folder },
    );
  }
  const files = filesOf(language);
  const code = readFileSync(join(folder, files.code), "utf8");
  const markdownPath = join(folder, SKILL_DESCRIPTION_FILE);
  if (!existsSync(markdownPath)) {
    throw new SkillError("skill.bad_export", `skill "${name}" has no ${SKILL_DESCRIPTION_FILE}`, {
      path: markdownPath,
    });
  }
  const markdown = parseSkillMarkdown(readFileSync(markdownPath, "utf8"));
  const description = markdown.body || markdown.fields.description || "";
  if (description === "") {
    throw new SkillError(
      "skill.bad_export",
      `skill "${name}": ${SKILL_DESCRIPTION_FILE} has no description`,
      {
        path: markdownPath,
      },
    );
  }
  if (markdown.fields.name !== undefined && markdown.fields.name !== name) {
    throw new SkillError(
      "skill.bad_export",
      `skill folder "${name}": ${SKILL_DESCRIPTION_FILE} names it "${markdown.fields.name}"; the folder name is the skill name`,
      { path: markdownPath },
    );
  }
  const declarationPath = join(folder, files.declaration);
  const declaration = existsSync(declarationPath) ? readFileSync(declarationPath, "utf8") : undefined;
  return {
    name,
    code,
    description,
    declaration,
    language,
    ...readMetadata(join(folder, SKILL_METADATA_FILE)),
    dir: folder,
  };
}

function readMetadata(path: string): Pick<ExportedSkill, "version" | "visibility"> {
  if (!existsSync(path)) return {};
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new SkillError("skill.bad_export", `${path} is not valid JSON`, { path }, { cause: error });
  }
  if (typeof value !== "object" || value === null) {
    throw new SkillError("skill.bad_export", `${path} must hold a JSON object`, { path });
  }
  const { version, visibility } = value as Record<string, unknown>;
  return {
    version: typeof version === "number" ? version : undefined,
    visibility: visibility === "private" || visibility === "shared" ? visibility : undefined,
  };
}

export interface ImportSkillsOptions {
  /** Derives (and checks) the declaration from the code; throwing refuses the skill. */
  declare: (skill: ExportedSkill) => string | Promise<string>;
  /** Author session of the imported versions; none by default (operator import). */
  session?: string | null | undefined;
}

/**
 * Saves every skill of `dir` as a new version (shared), the declaration derived
 * by `declare`. Everything that can refuse a skill is checked before the first
 * save (its declaration, a name that is another session's private skill), so a
 * refused import saves nothing; only a store failing midway leaves the skills
 * saved before it (importing again saves each as a newer version).
 */
export async function importSkills(
  store: SkillStore,
  dir: string,
  options: ImportSkillsOptions,
): Promise<SkillVersion[]> {
  const skills = readSkillFolders(dir);
  const declarations = await Promise.all(skills.map((skill) => options.declare(skill)));
  const session = options.session ?? null;
  const existing = new Map((await store.list({ includePrivate: true })).map((skill) => [skill.name, skill]));
  for (const skill of skills) {
    const owner = existing.get(skill.name);
    if (owner?.visibility === "private" && owner.ownerSession !== session) {
      throw new SkillError(
        "skill.name_taken",
        `cannot import skill "${skill.name}": a private skill of session "${owner.ownerSession}" has that name`,
        { name: skill.name },
      );
    }
  }
  const saved: SkillVersion[] = [];
  for (const [index, skill] of skills.entries()) {
    saved.push(
      await store.save({
        name: skill.name,
        code: skill.code,
        description: skill.description,
        declaration: declarations[index] ?? "",
        language: skill.language,
        session,
        visibility: "shared",
      }),
    );
  }
  return saved;
}
