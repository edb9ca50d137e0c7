import { SkillError } from "../store/skill-error.ts";
import type { SkillVersion } from "../store/types.ts";
import { SkillCheckError } from "./errors.ts";
import type { PythonSkillDeclaration } from "./python-skill.ts";
import { pythonModuleName, pythonModuleNames } from "./python-skill-modules.ts";

/**
 * What saving a Python skill checks against the skills already saved: its
 * module name is not another Python skill's (`every`: all skills, private ones
 * too, since a module name is global), and each `skills.<module>` it imports
 * is a Python skill the saver sees (`visible`). Throws `SkillError`
 * (`skill.name_taken`) or `SkillCheckError` (`skill.import`, with the line).
 */
export function checkPythonSkillImports(
  name: string,
  checked: PythonSkillDeclaration,
  every: readonly SkillVersion[],
  visible: readonly SkillVersion[],
): void {
  const module = pythonModuleName(name);
  const clash = every.find(
    (skill) => skill.language === "python" && skill.name !== name && pythonModuleName(skill.name) === module,
  );
  if (clash) {
    throw new SkillError(
      "skill.name_taken",
      `Python skill "${name}" would be imported as skills.${module}, which is already the Python skill "${clash.name}"; choose another name`,
      { name, module },
    );
  }
  const modules = pythonModuleNames(visible);
  for (const { module: imported, line } of checked.imports) {
    if (imported === module) continue;
    const target = visible.find((skill) => modules.get(skill.name) === imported);
    if (target?.language === "python") continue;
    const why = target
      ? `skills.${imported} is the TypeScript skill "${target.name}": Python can import only Python skills`
      : `no Python skill is imported as skills.${imported} (${pythonNamesOf(visible, modules) || "no Python skill is saved yet"})`;
    throw new SkillCheckError("skill.import", `Python skill "${name}" (line ${line}): ${why}`, {
      name,
      line,
      specifier: `skills.${imported}`,
    });
  }
}

function pythonNamesOf(skills: readonly SkillVersion[], modules: ReadonlyMap<string, string>): string {
  return skills
    .filter((skill) => skill.language === "python")
    .map((skill) => `skills.${modules.get(skill.name) ?? pythonModuleName(skill.name)}`)
    .slice(0, 20)
    .join(", ");
}
