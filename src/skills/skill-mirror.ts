import { compareStrings } from "../catalog/naming.ts";
import { messageOf } from "../errors/message-of.ts";
import type { SharedStore, StoreChange } from "../store/domains.ts";
import type { SkillVersion, SkillViewer } from "../store/types.ts";

/** Told a skill's latest version changed: the new one, or `undefined` when it is gone. */
export type MirrorChangeListener = (name: string, skill: SkillVersion | undefined) => void;

/** Whether `viewer` sees `skill`: the store's rule (reader.ts SKILL_VISIBLE), in memory. */
export function visibleTo(skill: SkillVersion, viewer: SkillViewer = {}): boolean {
  if (skill.visibility === "shared" || viewer.includePrivate === true) return true;
  const session = viewer.session ?? null;
  return session !== null && skill.ownerSession === session;
}

/**
 * The latest version of every skill in the store (every visibility), held in
 * memory so hot paths (search, a program's `skills/<name>` imports, Python's
 * mounted modules) read synchronously. Loaded by `attach`, then kept current
 * by the store's changes: `saved`/`removed` reload that name, `resync` (changes
 * may have been missed) reloads everything. A failed reload is logged and the
 * last mirror kept: a later change or resync brings it back in step.
 *
 * Reads may finish out of order; each carries a ticket taken when it starts
 * and a result is kept only when no later-started read (or local write)
 * already set that name, so an older answer never overwrites a newer one.
 */
export class SkillMirror {
  readonly #skills = new Map<string, SkillVersion>();
  /** Ticket of the read or write that last set each name; names older than the last full load are dropped. */
  readonly #stamps = new Map<string, number>();
  readonly #pending = new Set<Promise<void>>();
  readonly #onChanged: MirrorChangeListener;
  readonly #warn: (message: string) => void;
  #store: SharedStore | undefined;
  #stopListening: (() => void) | undefined;
  #tickets = 0;
  /** Ticket of the last full load applied. */
  #loadedAll = 0;

  constructor(options: { onChanged: MirrorChangeListener; warn: (message: string) => void }) {
    this.#onChanged = options.onChanged;
    this.#warn = options.warn;
  }

  /** The store it mirrors; undefined until attached. */
  get store(): SharedStore | undefined {
    return this.#store;
  }

  /**
   * Loads every skill of `store` and follows its changes. Rejects (and stays
   * detached) when the store does not answer. Attaching the same store again does nothing.
   */
  async attach(store: SharedStore): Promise<void> {
    if (this.#store === store) return;
    this.detach();
    this.#store = store;
    // Listening before loading: a change made during the load is reloaded after it.
    this.#stopListening = store.onChange((change: StoreChange) =>
      this.#reload(store, "name" in change ? change.name : undefined),
    );
    try {
      await this.#loadAll(store, { throws: true });
    } catch (error) {
      this.detach();
      throw error;
    }
  }

  /** Stops following the store; the mirror keeps what it holds. */
  detach(): void {
    this.#stopListening?.();
    this.#stopListening = undefined;
    this.#store = undefined;
  }

  get(name: string, viewer?: SkillViewer): SkillVersion | undefined {
    const skill = this.#skills.get(name);
    return skill && visibleTo(skill, viewer) ? skill : undefined;
  }

  /** Latest version of every skill `viewer` sees, sorted by name (code-unit order). */
  list(viewer?: SkillViewer): SkillVersion[] {
    return [...this.#skills.values()]
      .filter((skill) => visibleTo(skill, viewer))
      .sort((a, b) => compareStrings(a.name, b.name));
  }

  /**
   * A write through this replica, as its store answered it: shown at once, not
   * when its notification arrives. Then read again: a reload that started
   * before the write resolved is now ignored, and it may have carried a later
   * write of another replica.
   */
  wrote(name: string, skill: SkillVersion | undefined): void {
    this.#applyOne(name, skill, ++this.#tickets);
    if (this.#store) this.#reload(this.#store, name);
  }

  /** Resolves when every reload started so far has finished (tests, and callers that need the latest). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** One name (`saved`, `removed`), or everything (`resync`). */
  #reload(store: SharedStore, name: string | undefined): void {
    const reload = name === undefined ? this.#loadAll(store) : this.#loadOne(store, name);
    this.#pending.add(reload);
    void reload.finally(() => this.#pending.delete(reload));
  }

  async #loadOne(store: SharedStore, name: string): Promise<void> {
    const ticket = ++this.#tickets;
    let skill: SkillVersion | undefined;
    try {
      skill = await store.skills.get(name, { includePrivate: true });
    } catch (error) {
      this.#warn(`cannot reload skill "${name}" from the store: ${messageOf(error)}; serving the last copy`);
      return;
    }
    if (this.#store === store) this.#applyOne(name, skill, ticket);
  }

  async #loadAll(store: SharedStore, options: { throws?: boolean } = {}): Promise<void> {
    const ticket = ++this.#tickets;
    let skills: SkillVersion[];
    try {
      skills = await store.skills.list({ includePrivate: true });
    } catch (error) {
      if (options.throws) throw error;
      this.#warn(`cannot reload the skills from the store: ${messageOf(error)}; serving the last copies`);
      return;
    }
    // A full load started before another one that is applied has nothing newer to say.
    if (this.#store !== store || ticket < this.#loadedAll) return;
    this.#loadedAll = ticket;
    const loaded = new Map(skills.map((skill) => [skill.name, skill]));
    for (const name of new Set([...this.#skills.keys(), ...loaded.keys()])) {
      // A name read or written after this load started keeps that newer answer.
      if ((this.#stamps.get(name) ?? 0) > ticket) continue;
      this.#set(name, loaded.get(name));
    }
    for (const [name, stamp] of this.#stamps) if (stamp < ticket) this.#stamps.delete(name);
  }

  /** Sets `name` from a read or write with `ticket`, unless one started later already did. */
  #applyOne(name: string, skill: SkillVersion | undefined, ticket: number): void {
    if (ticket < Math.max(this.#stamps.get(name) ?? 0, this.#loadedAll)) return;
    this.#stamps.set(name, ticket);
    this.#set(name, skill);
  }

  #set(name: string, skill: SkillVersion | undefined): void {
    const before = this.#skills.get(name);
    if (skill) this.#skills.set(name, skill);
    else this.#skills.delete(name);
    if (!sameVersion(before, skill)) this.#onChanged(name, skill);
  }
}

/** The same stored version: a name removed and saved again restarts at version 1, so more than the number. */
function sameVersion(a: SkillVersion | undefined, b: SkillVersion | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.version === b.version &&
    a.createdAt === b.createdAt &&
    a.code === b.code &&
    a.description === b.description &&
    a.declaration === b.declaration &&
    a.visibility === b.visibility &&
    a.ownerSession === b.ownerSession
  );
}
