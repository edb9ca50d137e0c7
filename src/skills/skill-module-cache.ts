import type { SandboxSkillModule } from "../sandbox/types.ts";
import { declaredExports } from "./skill-exports.ts";
import { type CompiledSkill, compileSkillModule } from "./skill-module.ts";

/** Compiled skill modules kept in memory (by name, version and code). */
export const DEFAULT_SKILL_MODULE_CACHE = 256;

/**
 * Skills compiled for the sandbox, kept by name, version and code: a program
 * importing a skill compiles it once, and a changed skill (any replica's) is a
 * new key. Bounded: past the limit the cache starts over.
 */
export class SkillModuleCache {
  readonly #modules = new Map<string, Promise<CompiledSkill>>();

  /** Compiles (or reuses) `code`; rejects with `SkillCheckError` when it cannot be compiled. */
  compile(name: string, version: number, code: string): Promise<CompiledSkill> {
    const key = `${name}\u0000${version}\u0000${code}`;
    let compiled = this.#modules.get(key);
    if (!compiled) {
      if (this.#modules.size >= DEFAULT_SKILL_MODULE_CACHE) this.#modules.clear();
      compiled = compileSkillModule(name, code);
      // A failed compile is not remembered: the next import tries again and reports it again.
      compiled.catch(() => this.#modules.delete(key));
      this.#modules.set(key, compiled);
    }
    return compiled;
  }

  /** The sandbox module of a skill version (version 0: an unsaved draft). */
  async module(skill: {
    name: string;
    version: number;
    code: string;
    declaration: string;
  }): Promise<SandboxSkillModule> {
    const compiled = await this.compile(skill.name, skill.version, skill.code);
    return {
      name: skill.name,
      version: skill.version,
      js: compiled.js,
      imports: compiled.imports,
      typeExports: declaredExports(skill.declaration).types,
    };
  }
}
