import type { Catalog } from "../catalog/catalog.ts";
import { renderTree } from "../catalog/declaration/tree.ts";
import type { SandboxSkillModule } from "../sandbox/types.ts";
import { DEFAULT_SEARCH_LIMIT, type SearchIndex, searchTools, type ToolMatch } from "../search/index.ts";
import { SkillError } from "../store/skill-error.ts";
import { assertSkillName } from "../store/skill-name.ts";
import type {
  SkillLanguage,
  SkillOrigin,
  SkillVersion,
  SkillViewer,
  SkillVisibility,
  Store,
} from "../store/types.ts";
import { SkillCheckError } from "./errors.ts";
import { declarePythonSkill, type PythonSkillValidator } from "./python-skill.ts";
import { pythonModuleName, pythonModuleNames, pythonSkillSources } from "./python-skill-modules.ts";
import { declareSkill } from "./skill-declaration.ts";
import { skillDocument, skillMatch, skillPath } from "./skill-documents.ts";
import { declaredExports } from "./skill-exports.ts";
import { type CompiledSkill, compileSkillModule } from "./skill-module.ts";

/** Compiled skill modules kept in memory (by name, version and code). */
export const DEFAULT_SKILL_MODULE_CACHE = 256;
/** Extra hits asked of the index, so skills private to other sessions do not shorten an answer. */
const HIDDEN_ALLOWANCE = 10;

export interface SkillLibraryOptions {
  /** The gateway's store; undefined until it is started. */
  store: () => Store | undefined;
  catalog: Catalog;
  /** The gateway's search index: skills are ranked with the tools. */
  index: SearchIndex;
  /**
   * The full syntax check of Python skills, from the Python runtime (never run in the
   * gateway's process). Without it a Python skill is checked only as far as
   * `declarePythonSkill` reads it, and a syntax error shows when it is imported.
   */
  validatePythonSkill?: PythonSkillValidator | undefined;
}

export interface SaveSkillRequest {
  name: string;
  code: string;
  description: string;
  /** Author session; the owner of a private skill. */
  session?: string | null | undefined;
  /** Default `shared`: every session sees it. */
  visibility?: SkillVisibility | undefined;
  /** Default `typescript`. */
  language?: SkillLanguage | undefined;
  /** Set when a model wrote it (solve_task). */
  origin?: SkillOrigin | undefined;
}

/** A TypeScript skill checked and declared, not saved. */
export interface CheckedSkill {
  declaration: string;
  exports: string[];
  imports: string[];
}

/** Told the name of a skill saved or removed. */
export type SkillChangeListener = (name: string) => void;

export interface SavedSkill extends SkillVersion {
  exports: string[];
  imports: string[];
}

/**
 * Saved skills over the store: checked and declared when saved, ranked in
 * the search index, compiled for the sandbox when imported. Holds only caches;
 * the store is the truth.
 */
export class SkillLibrary {
  readonly #store: () => Store | undefined;
  readonly #catalog: Catalog;
  readonly #index: SearchIndex;
  readonly #validatePython: PythonSkillValidator | undefined;
  readonly #modules = new Map<string, Promise<CompiledSkill>>();
  readonly #listeners = new Set<SkillChangeListener>();
  #indexed: Store | undefined;

  constructor(options: SkillLibraryOptions) {
    this.#store = options.store;
    this.#catalog = options.catalog;
    this.#index = options.index;
    this.#validatePython = options.validatePythonSkill;
  }

  /**
   * Calls `listener` after each save or removal through this library (not for
   * changes another process makes to the store): front ends announce
   * `resources/list_changed`. Returns its removal.
   */
  onChange(listener: SkillChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Checks the code (syntax, imports, types against the tools and the skills it
   * imports), derives its declaration and stores a new version. Throws
   * `SkillCheckError` (with the line) or the store's `SkillError`.
   */
  async save(request: SaveSkillRequest): Promise<SavedSkill> {
    const store = this.#open();
    assertSkillName(request.name);
    const visibility = request.visibility ?? "shared";
    // A shared skill may only import shared skills: every session must be able to load it.
    const viewer: SkillViewer = visibility === "private" ? { session: request.session ?? null } : {};
    if (request.language === "python") return this.#savePython(request, store, visibility, viewer);
    const checked = await this.#check(request.name, request.code, store, viewer);
    const saved = store.saveSkill({
      name: request.name,
      code: request.code,
      description: request.description,
      declaration: checked.declaration,
      session: request.session ?? null,
      visibility,
      ...(request.origin && { origin: request.origin }),
    });
    this.#syncIndex(store);
    this.#index.add([skillDocument(saved)]);
    this.#changed(saved.name);
    return { ...saved, exports: checked.exports, imports: checked.imports };
  }

  /**
   * What `save` checks of a TypeScript skill (syntax, imports, types, a module body
   * that can run), without saving it: for code to try before it is kept (solve_task).
   * `session` is whose private skills it may import. Throws `SkillCheckError`.
   */
  async check(name: string, code: string, session?: string | null): Promise<CheckedSkill> {
    assertSkillName(name);
    return this.#check(name, code, this.#open(), { session: session ?? null });
  }

  /** The sandbox module of an unsaved skill `check` accepted, for one execution's import. */
  async draftModule(name: string, code: string, declaration: string): Promise<SandboxSkillModule> {
    const compiled = await this.#compile(name, 0, code);
    return {
      name,
      version: 0,
      js: compiled.js,
      imports: compiled.imports,
      typeExports: declaredExports(declaration).types,
    };
  }

  async #check(name: string, code: string, store: Store, viewer: SkillViewer): Promise<CheckedSkill> {
    const checked = await declareSkill({
      name,
      code,
      toolsTree: renderTree(this.#catalog.tools()),
      skillDeclaration: (imported) => {
        const skill = store.getSkill(imported, viewer);
        if (skill?.language === "python") {
          throw new SkillCheckError(
            "skill.import",
            `skill "${name}" imports "skills/${imported}", a Python skill: TypeScript can import only TypeScript skills`,
            { name, specifier: `skills/${imported}` },
          );
        }
        return skill?.declaration;
      },
    });
    // Catches what the type checker accepts but a module body cannot run (top-level await).
    await this.#compile(name, 0, code);
    return checked;
  }

  /**
   * A Python skill: read (not run) for its declaration, its `skills.<module>` imports checked
   * against the Python skills the saver sees, then the runtime's syntax check when there is one.
   */
  async #savePython(
    request: SaveSkillRequest,
    store: Store,
    visibility: SkillVisibility,
    viewer: SkillViewer,
  ): Promise<SavedSkill> {
    const { name, code } = request;
    const checked = declarePythonSkill(name, code);
    const module = pythonModuleName(name);
    const clash = store
      .listSkills({ includePrivate: true })
      .find(
        (skill) =>
          skill.language === "python" && skill.name !== name && pythonModuleName(skill.name) === module,
      );
    if (clash) {
      throw new SkillError(
        "skill.name_taken",
        `Python skill "${name}" would be imported as skills.${module}, which is already the Python skill "${clash.name}"; choose another name`,
        { name, module },
      );
    }
    const visible = store.listSkills(viewer);
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
    const problem = await this.#validatePython?.({ name, code });
    if (problem) {
      throw new SkillCheckError(
        "skill.syntax",
        `Python skill "${name}"${problem.line !== undefined ? ` (line ${problem.line})` : ""}: ${problem.message}`,
        { name, ...(problem.line !== undefined && { line: problem.line }) },
      );
    }
    const saved = store.saveSkill({
      name,
      code,
      description: request.description,
      declaration: checked.declaration,
      language: "python",
      session: request.session ?? null,
      visibility,
    });
    this.#syncIndex(store);
    this.#index.add([skillDocument(saved)]);
    this.#changed(saved.name);
    return { ...saved, exports: checked.exports, imports: checked.imports.map((entry) => entry.module) };
  }

  /**
   * The `.d.ts` of a skill for type-checking a TypeScript program's import; undefined for a
   * Python skill (and a missing one), so the import fails at run time with `load`'s reason.
   */
  typeScriptDeclaration(name: string, session?: string | null): string | undefined {
    const skill = this.get(name, session);
    return skill?.language === "python" ? undefined : skill?.declaration;
  }

  /**
   * The modules the Python runtime mounts for an execution in `session`, by dotted name
   * (`skills.<module>` → source): see `pythonSkillSources`.
   */
  pythonSources(session?: string | null): Record<string, string> {
    return pythonSkillSources(this, session);
  }

  /** The latest version visible to `session` (shared, or its own private ones). */
  get(name: string, session?: string | null): SkillVersion | undefined {
    return this.#store()?.getSkill(name, { session: session ?? null });
  }

  list(viewer: SkillViewer = {}): SkillVersion[] {
    return this.#store()?.listSkills(viewer) ?? [];
  }

  /** Removes every version; `false` when there was none visible to `viewer`. */
  remove(name: string, viewer: SkillViewer = {}): boolean {
    const store = this.#open();
    const removed = store.removeSkill(name, viewer);
    if (removed) {
      this.#index.remove([skillPath(name)]);
      this.#changed(name);
    }
    return removed;
  }

  /** The compiled module of a skill for `import ... from "skills/<name>"` in `session`. */
  async load(name: string, session: string): Promise<SandboxSkillModule> {
    const store = this.#open();
    const skill = store.getSkill(name, { session });
    if (!skill) {
      const known = store
        .listSkills({ session })
        .map((entry) => entry.name)
        .slice(0, 20);
      throw new SkillCheckError(
        "skill.not_found",
        `No skill "${name}"${known.length > 0 ? `; saved skills: ${known.join(", ")}` : "; none is saved yet (save_skill)"}`,
        { name },
      );
    }
    if (skill.language === "python") {
      throw new SkillCheckError(
        "skill.import",
        `skills/${name} is a Python skill: TypeScript programs cannot import it (from Python, language "python": from skills.${pythonModuleNames(store.listSkills({ session })).get(name) ?? pythonModuleName(name)} import ...)`,
        { name },
      );
    }
    const compiled = await this.#compile(skill.name, skill.version, skill.code);
    return {
      name: skill.name,
      version: skill.version,
      js: compiled.js,
      imports: compiled.imports,
      typeExports: declaredExports(skill.declaration).types,
    };
  }

  /** Tools and the skills `session` sees, ranked together, best first. */
  search(
    query: string,
    options: { limit?: number | undefined; minScore?: number | undefined; session?: string | undefined } = {},
  ): ToolMatch[] {
    const store = this.#store();
    if (store) this.#syncIndex(store);
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const matches = searchTools(
      this.#index,
      this.#catalog,
      query,
      {
        limit: store ? limit + HIDDEN_ALLOWANCE : limit,
        ...(options.minScore !== undefined && { minScore: options.minScore }),
      },
      store
        ? (hit, score) => {
            const skill = store.getSkill(hit.name, { session: options.session ?? null });
            return skill ? skillMatch(skill, hit, score) : undefined;
          }
        : undefined,
    );
    return matches.slice(0, limit);
  }

  #changed(name: string): void {
    for (const listener of this.#listeners) {
      try {
        listener(name);
      } catch {
        // A listener's failure (a closed connection) must not fail the save that already happened.
      }
    }
  }

  #open(): Store {
    const store = this.#store();
    if (!store) {
      throw new SkillCheckError("skill.unavailable", "skills need the store: start the gateway first", {
        name: "",
      });
    }
    return store;
  }

  /** Indexes every saved skill once per store (private ones too: answers are filtered per session). */
  #syncIndex(store: Store): void {
    if (this.#indexed === store) return;
    this.#indexed = store;
    this.#index.add(store.listSkills({ includePrivate: true }).map(skillDocument));
  }

  #compile(name: string, version: number, code: string): Promise<CompiledSkill> {
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
}

function pythonNamesOf(skills: readonly SkillVersion[], modules: ReadonlyMap<string, string>): string {
  return skills
    .filter((skill) => skill.language === "python")
    .map((skill) => `skills.${modules.get(skill.name) ?? pythonModuleName(skill.name)}`)
    .slice(0, 20)
    .join(", ");
}
