import { PYTHON_KEYWORDS } from "../catalog/declaration/python/python-names.ts";
import { compareStrings } from "../catalog/naming.ts";
import type { SkillVersion } from "../store/types.ts";

/** The package Python programs import skills from: `from skills.<module> import f`. */
export const PYTHON_SKILLS_PACKAGE = "skills";

/** `my-stats` → `my_stats`, `class` → `class_`: skill names are `[A-Za-z][A-Za-z0-9_-]*`, so only `-` and keywords stand in the way. */
export function pythonModuleName(name: string): string {
  const id = name.replaceAll("-", "_");
  return PYTHON_KEYWORDS.has(id) ? `${id}_` : id;
}

/**
 * Skill name → Python module name (without the `skills.` package), unique among `skills`.
 * A Python skill always gets `pythonModuleName(name)`: saving one whose module another
 * Python skill already has is refused, so an import never changes meaning. A TypeScript
 * skill (mounted only to say it cannot be imported) gets it when free, else `_2`, `_3`, ...
 */
export function pythonModuleNames(
  skills: readonly Pick<SkillVersion, "name" | "language">[],
): Map<string, string> {
  const ordered = [...skills].sort(
    (a, b) =>
      Number(a.language !== "python") - Number(b.language !== "python") ||
      Number(pythonModuleName(a.name) !== a.name) - Number(pythonModuleName(b.name) !== b.name) ||
      compareStrings(a.name, b.name),
  );
  const taken = new Set<string>();
  const modules = new Map<string, string>();
  for (const { name } of ordered) {
    if (modules.has(name)) continue;
    const base = pythonModuleName(name);
    let module = base;
    for (let n = 2; taken.has(module); n += 1) module = `${base}_${n}`;
    taken.add(module);
    modules.set(name, module);
  }
  return modules;
}

/** The one-module answer for `from skills.<module> import ...` of a TypeScript skill: a clear ImportError. */
function typeScriptSkillStub(skill: SkillVersion): string {
  const message = `skills/${skill.name} is a TypeScript skill: Python programs can import only Python skills (save_skill with language "python")`;
  return `raise ImportError(${JSON.stringify(message)})\n`;
}

/** The skills a session sees, as `list` answers them (SkillLibrary.list). */
export interface SkillLister {
  list(viewer?: { session?: string | null | undefined }): SkillVersion[];
}

/**
 * The modules the Python runtime mounts for one execution, by dotted module name
 * (`skills.stats` → its source): every Python skill `session` sees, latest version. A
 * TypeScript skill is mounted as a module that raises `ImportError` saying so, so
 * `from skills.ts_skill import f` fails with that reason rather than "No module named".
 * The runtime also needs the package itself (`skills/__init__.py`, empty).
 */
export function pythonSkillSources(library: SkillLister, session?: string | null): Record<string, string> {
  const skills = library.list({ session: session ?? null });
  const modules = pythonModuleNames(skills);
  const sources: Record<string, string> = {};
  for (const skill of skills) {
    const module = modules.get(skill.name);
    if (module === undefined) continue;
    sources[`${PYTHON_SKILLS_PACKAGE}.${module}`] =
      skill.language === "python" ? skill.code : typeScriptSkillStub(skill);
  }
  return sources;
}
