/**
 * Skill modules: CommonJS-style bodies, their imports loaded first; each runs
 * once per execution, as a script of its own named `skills/<name>.ts`.
 * Compiled `import … from "skills/<name>"` declarations call `importSkill`
 * (installed as SKILL_IMPORT_FUNCTION).
 */
import { ANALYSIS_MODULE, SKILL_FILE_PREFIX, SKILL_IMPORT_FUNCTION } from "./constants.ts";
import {
  define,
  defineProperties,
  defineProperty,
  ErrorClass,
  getOwnPropertyDescriptors,
  indirectEval,
  isArray,
  StringOf,
  SyntaxErrorClass,
  stringify,
  TypeErrorClass,
} from "./intrinsics.ts";
import { builtinModule } from "./modules.ts";
import { run, type SkillEntry } from "./run-state.ts";
import { hostOperation } from "./workspace.ts";

const SKILL_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

interface LoadedSkill {
  js: string;
  imports: string[];
  typeExports?: unknown;
}

type SkillBody = (exports: unknown, require: (specifier: unknown) => unknown, module: object) => void;

function requireSkill(specifier: unknown): unknown {
  const builtin = builtinModule(specifier);
  if (builtin !== undefined) return builtin.exports;
  const name =
    typeof specifier === "string" && specifier.startsWith(SKILL_FILE_PREFIX)
      ? specifier.slice(SKILL_FILE_PREFIX.length)
      : undefined;
  const entry = name === undefined ? undefined : run.skillModules.get(name);
  if (entry === undefined) {
    throw new ErrorClass(
      "Cannot find module " +
        stringify(StringOf(specifier)) +
        ': skills import only "skills/<name>" and ' +
        stringify(ANALYSIS_MODULE),
    );
  }
  return entry.module.exports;
}

function startSkill(name: string): SkillEntry {
  const entry: SkillEntry = { module: {}, ready: undefined, typeExports: [] };
  // esbuild's CommonJS output replaces module.exports once it is built; its properties are copied onto the
  // first exports object instead, which a skill in an import cycle may already hold.
  let exported: unknown = {};
  const first = exported as object;
  defineProperty(entry.module, "exports", {
    get() {
      return exported;
    },
    set(value: unknown) {
      if (value !== null && typeof value === "object" && exported === first)
        defineProperties(first, getOwnPropertyDescriptors(value));
      else exported = value;
    },
  });
  run.skillModules.set(name, entry);
  entry.ready = (async () => {
    const loaded = (await hostOperation("skill.load", { name })) as LoadedSkill;
    if (isArray(loaded.typeExports)) entry.typeExports = loaded.typeExports;
    for (const dependency of loaded.imports) {
      // One already started is either done or up this chain (a cycle): it is not awaited, as in CommonJS.
      if (!run.skillModules.has(dependency)) await startSkill(dependency).ready;
    }
    const body = indirectEval(
      "(function (exports, require, module) {" +
        loaded.js +
        "\n})\n//# sourceURL=" +
        SKILL_FILE_PREFIX +
        name +
        ".ts",
    ) as SkillBody;
    body.call(undefined, entry.module.exports, requireSkill, entry.module);
    return entry.module.exports;
  })();
  return entry;
}

/** Throws a SyntaxError, as a missing export of a module does, for a wanted name `exported` lacks. */
function checkNames(exported: unknown, names: unknown, typeExports: readonly unknown[], what: string): void {
  if (!isArray(names)) return;
  for (const wanted of names) {
    if (typeExports.includes(wanted)) continue;
    if (
      exported === null ||
      (typeof exported !== "object" && typeof exported !== "function") ||
      !(wanted in exported)
    ) {
      throw new SyntaxErrorClass(what + " has no export named " + stringify(StringOf(wanted)));
    }
  }
}

async function importSkill(name: unknown, names?: unknown): Promise<unknown> {
  const builtin = builtinModule(name);
  if (builtin !== undefined) {
    checkNames(builtin.exports, names, builtin.typeExports, "The module " + stringify(name));
    return builtin.exports;
  }
  if (typeof name !== "string" || !SKILL_NAME.test(name)) {
    throw new TypeErrorClass("Invalid skill name " + stringify(StringOf(name)));
  }
  const entry = run.skillModules.get(name) ?? startSkill(name);
  const exported = await entry.ready;
  checkNames(exported, names, entry.typeExports, "The skill " + stringify(name));
  return exported;
}

export function installSkillImport(): void {
  define(SKILL_IMPORT_FUNCTION, importSkill);
}
