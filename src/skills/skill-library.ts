import type { Catalog } from "../catalog/catalog.ts";
import { renderTree } from "../catalog/declaration/tree.ts";
import type { SandboxSkillModule } from "../sandbox/types.ts";
import { DEFAULT_SEARCH_LIMIT, type SearchIndex, searchTools, type ToolMatch } from "../search/index.ts";
import { assertSkillName } from "../store/skill-name.ts";
import type { SkillVersion, SkillViewer, SkillVisibility, Store } from "../store/types.ts";
import { SkillCheckError } from "./errors.ts";
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
}

export interface SaveSkillRequest {
  name: string;
  code: string;
  description: string;
  /** Author session; the owner of a private skill. */
  session?: string | null | undefined;
  /** Default `shared`: every session sees it. */
  visibility?: SkillVisibility | undefined;
}

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
  readonly #modules = new Map<string, Promise<CompiledSkill>>();
  #indexed: Store | undefined;

  constructor(options: SkillLibraryOptions) {
    this.#store = options.store;
    this.#catalog = options.catalog;
    this.#index = options.index;
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
    const checked = await declareSkill({
      name: request.name,
      code: request.code,
      toolsTree: renderTree(this.#catalog.tools()),
      skillDeclaration: (name) => store.getSkill(name, viewer)?.declaration,
    });
    // Catches what the type checker accepts but a module body cannot run (top-level await).
    await this.#compile(request.name, 0, request.code);
    const saved = store.saveSkill({
      name: request.name,
      code: request.code,
      description: request.description,
      declaration: checked.declaration,
      session: request.session ?? null,
      visibility,
    });
    this.#syncIndex(store);
    this.#index.add([skillDocument(saved)]);
    return { ...saved, exports: checked.exports, imports: checked.imports };
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
    if (removed) this.#index.remove([skillPath(name)]);
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
