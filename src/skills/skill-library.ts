import type { Catalog } from "../catalog/catalog.ts";
import { renderTree } from "../catalog/declaration/tree.ts";
import type { SandboxSkillModule } from "../sandbox/types.ts";
import { DEFAULT_SEARCH_LIMIT, type SearchIndex, searchTools, type ToolMatch } from "../search/index.ts";
import type { SharedStore } from "../store/domains.ts";
import { assertSkillName } from "../store/skill-name.ts";
import type {
  SkillLanguage,
  SkillOrigin,
  SkillVersion,
  SkillViewer,
  SkillVisibility,
} from "../store/types.ts";
import { SkillCheckError } from "./errors.ts";
import { declarePythonSkill, type PythonSkillValidator } from "./python-skill.ts";
import { pythonModuleName, pythonModuleNames, pythonSkillSources } from "./python-skill-modules.ts";
import { checkPythonSkillImports } from "./python-skill-save-check.ts";
import { declareSkill } from "./skill-declaration.ts";
import { skillDocument, skillMatch, skillPath } from "./skill-documents.ts";
import { SkillMirror, visibleTo } from "./skill-mirror.ts";
import { SkillModuleCache } from "./skill-module-cache.ts";

/** Extra hits asked of the index, so skills private to other sessions do not shorten an answer. */
const HIDDEN_ALLOWANCE = 10;

export interface SkillLibraryOptions {
  catalog: Catalog;
  /** The gateway's search index: skills are ranked with the tools. */
  index: SearchIndex;
  /**
   * The full syntax check of Python skills, from the Python runtime (never run in the
   * gateway's process). Without it a Python skill is checked only as far as
   * `declarePythonSkill` reads it, and a syntax error shows when it is imported.
   */
  validatePythonSkill?: PythonSkillValidator | undefined;
  /** Told when the skills cannot be reloaded from the store (the last copies are served meanwhile). */
  warn?: ((message: string) => void) | undefined;
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

/** Told the name of a skill saved, changed or removed, through any replica. */
export type SkillChangeListener = (name: string) => void;

export interface SavedSkill extends SkillVersion {
  exports: string[];
  imports: string[];
}

/**
 * Saved skills over the store: checked and declared when saved, ranked in
 * the search index, compiled for the sandbox when imported. Holds only caches;
 * the store is the truth. Reads of the latest versions (`get`, `list`, search,
 * imports) answer from a mirror of the store (`SkillMirror`), so they stay
 * synchronous and follow what every replica saves; saves check against the
 * store itself, and older versions are read from it.
 */
export class SkillLibrary {
  readonly #catalog: Catalog;
  readonly #index: SearchIndex;
  readonly #validatePython: PythonSkillValidator | undefined;
  readonly #modules = new SkillModuleCache();
  readonly #listeners = new Set<SkillChangeListener>();
  readonly #mirror: SkillMirror;

  constructor(options: SkillLibraryOptions) {
    this.#catalog = options.catalog;
    this.#index = options.index;
    this.#validatePython = options.validatePythonSkill;
    const warn = options.warn ?? ((message) => process.emitWarning(message, "ToolScriptWarning"));
    this.#mirror = new SkillMirror({
      // Private skills are indexed too: search answers are filtered per session.
      onChanged: (name, skill) => {
        if (skill) this.#index.add([skillDocument(skill)]);
        else this.#index.remove([skillPath(name)]);
        this.#changed(name);
      },
      warn,
    });
  }

  /**
   * Serves the skills of `store` (the gateway's, once started): loads them and
   * follows its changes. Rejects when the store does not answer.
   */
  attach(store: SharedStore): Promise<void> {
    return this.#mirror.attach(store);
  }

  /** Stops following the store (the gateway closes it). */
  detach(): void {
    this.#mirror.detach();
  }

  /** Resolves once the changes heard so far are applied: `get` and `list` then show them. */
  settled(): Promise<void> {
    return this.#mirror.settled();
  }

  /**
   * Calls `listener` after each save, change or removal, through this library or
   * any replica on the same store (heard from it): front ends announce
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
    const checked = await this.#check(request.name, request.code, await store.skills.list(viewer));
    const saved = await store.skills.save({
      name: request.name,
      code: request.code,
      description: request.description,
      declaration: checked.declaration,
      session: request.session ?? null,
      visibility,
      ...(request.origin && { origin: request.origin }),
    });
    this.#mirror.wrote(saved.name, saved);
    return { ...saved, exports: checked.exports, imports: checked.imports };
  }

  /**
   * What `save` checks of a TypeScript skill (syntax, imports, types, a module body
   * that can run), without saving it: for code to try before it is kept (solve_task).
   * `session` is whose private skills it may import. Throws `SkillCheckError`.
   */
  async check(name: string, code: string, session?: string | null): Promise<CheckedSkill> {
    assertSkillName(name);
    return this.#check(name, code, await this.#open().skills.list({ session: session ?? null }));
  }

  /** The sandbox module of an unsaved skill `check` accepted, for one execution's import. */
  async draftModule(name: string, code: string, declaration: string): Promise<SandboxSkillModule> {
    return this.#modules.module({ name, version: 0, code, declaration });
  }

  /** `visible`: the skills the code may import (what its saver sees, read from the store). */
  async #check(name: string, code: string, visible: readonly SkillVersion[]): Promise<CheckedSkill> {
    const byName = new Map(visible.map((skill) => [skill.name, skill]));
    const checked = await declareSkill({
      name,
      code,
      toolsTree: renderTree(this.#catalog.tools()),
      skillDeclaration: (imported) => {
        const skill = byName.get(imported);
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
    await this.#modules.compile(name, 0, code);
    return checked;
  }

  /**
   * A Python skill: read (not run) for its declaration, its `skills.<module>` imports checked
   * against the Python skills the saver sees, then the runtime's syntax check when there is one.
   */
  async #savePython(
    request: SaveSkillRequest,
    store: SharedStore,
    visibility: SkillVisibility,
    viewer: SkillViewer,
  ): Promise<SavedSkill> {
    const { name, code } = request;
    const checked = declarePythonSkill(name, code);
    const every = await store.skills.list({ includePrivate: true });
    const visible = every.filter((skill) => visibleTo(skill, viewer));
    checkPythonSkillImports(name, checked, every, visible);
    const problem = await this.#validatePython?.({ name, code });
    if (problem) {
      throw new SkillCheckError(
        "skill.syntax",
        `Python skill "${name}"${problem.line !== undefined ? ` (line ${problem.line})` : ""}: ${problem.message}`,
        { name, ...(problem.line !== undefined && { line: problem.line }) },
      );
    }
    const saved = await store.skills.save({
      name,
      code,
      description: request.description,
      declaration: checked.declaration,
      language: "python",
      session: request.session ?? null,
      visibility,
    });
    this.#mirror.wrote(saved.name, saved);
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
    return this.#mirror.get(name, { session: session ?? null });
  }

  /** The latest version of every skill `viewer` sees, sorted by name. */
  list(viewer: SkillViewer = {}): SkillVersion[] {
    return this.#mirror.list(viewer);
  }

  /** One version (the latest when absent), read from the store; undefined when `viewer` sees none. */
  version(
    name: string,
    options: SkillViewer & { version?: number | undefined } = {},
  ): Promise<SkillVersion | undefined> {
    return this.#open().skills.get(name, options);
  }

  /** Every version of a skill, oldest first, read from the store. */
  versions(name: string, viewer: SkillViewer = {}): Promise<SkillVersion[]> {
    return this.#open().skills.versions(name, viewer);
  }

  /** Removes every version; `false` when there was none visible to `viewer`. */
  async remove(name: string, viewer: SkillViewer = {}): Promise<boolean> {
    const removed = await this.#open().skills.remove(name, viewer);
    if (removed) this.#mirror.wrote(name, undefined);
    return removed;
  }

  /** The compiled module of a skill for `import ... from "skills/<name>"` in `session`. */
  async load(name: string, session: string): Promise<SandboxSkillModule> {
    this.#open();
    const skill = this.get(name, session);
    if (!skill) {
      const known = this.list({ session })
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
        `skills/${name} is a Python skill: TypeScript programs cannot import it (from Python, language "python": from skills.${pythonModuleNames(this.list({ session })).get(name) ?? pythonModuleName(name)} import ...)`,
        { name },
      );
    }
    return this.#modules.module(skill);
  }

  /** Tools and the skills `session` sees, ranked together, best first. */
  search(
    query: string,
    options: { limit?: number | undefined; minScore?: number | undefined; session?: string | undefined } = {},
  ): ToolMatch[] {
    const attached = this.#mirror.store !== undefined;
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const matches = searchTools(
      this.#index,
      this.#catalog,
      query,
      {
        limit: attached ? limit + HIDDEN_ALLOWANCE : limit,
        ...(options.minScore !== undefined && { minScore: options.minScore }),
      },
      attached
        ? (hit, score) => {
            const skill = this.get(hit.name, options.session);
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

  #open(): SharedStore {
    const store = this.#mirror.store;
    if (!store) {
      throw new SkillCheckError("skill.unavailable", "skills need the store: start the gateway first", {
        name: "",
      });
    }
    return store;
  }
}
