import type { ChunkedScanOptions } from "../privacy/chunked-detect.ts";
import type { PiiDetector } from "../privacy/detect.ts";
import { PrivacyError } from "../privacy/errors.ts";
import { replacedSince } from "../privacy/replaced-counts.ts";
import type { TokenVault } from "../privacy/token-vault.ts";
import { PiiVault } from "../privacy/vault.ts";
import { openVault, sealVault } from "../privacy/vault-crypto.ts";
import type { VaultStore } from "../store/domains.ts";

/** Commits lost in a row to other replicas before tokenizing gives up (each loss means another replica progressed). */
const MAX_COMMIT_ATTEMPTS = 10;

/** Where a session's vault persists: the store's vaults, sealed with the vault key. */
export interface VaultPersistence {
  store: VaultStore;
  key: Buffer;
}

/**
 * One session's PII vault on this replica, kept in step with the stored one
 * so that every replica hands out and reads back the same tokens.
 *
 * Tokens are `[KIND_n]` counters, so two replicas tokenizing for one session
 * at once could each give `[EMAIL_3]` to a different value. Tokens that
 * already left (to a program, in an answer) cannot be taken back, so a new
 * token is committed before it is handed out: each unit of tokenizing (a tool
 * result, an answer) runs on this copy, and when it added values the sealed
 * vault is written compare-and-set on the revision this copy was loaded at.
 * When another replica committed first, this copy is reloaded and the unit
 * run again: tokenizing is deterministic given the vault, so the redo gives
 * the tokens the other replica's values now dictate. Chosen over a lock held
 * across replicas for the whole execution: nothing waits on another replica's
 * program, no connection is pinned per execution, and the common case (no
 * new values) costs no write at all. On this replica the units of a session
 * take turns, so each commit starts from the revision the previous one made.
 *
 * Without persistence (no vault key, or no store) it is a plain in-memory
 * vault: stable for this process only.
 */
export class SessionVault implements TokenVault {
  readonly #session: string;
  readonly #detector: PiiDetector;
  readonly #persistence: VaultPersistence | undefined;
  #vault: PiiVault;
  /** The stored revision this copy is; undefined while none is stored (or when not persisted). */
  #revision: string | undefined;
  /** Whether this copy may differ from every stored revision (a commit failed midway): reloaded before use. */
  #unsure: boolean;
  /** This replica's tokenizing units of the session, one after the other. */
  #turn: Promise<unknown> = Promise.resolve();
  /** Pieces replaced by kind, over every copy this vault has held (metrics). */
  readonly #replaced = new Map<string, number>();

  constructor(session: string, detector: PiiDetector, persistence?: VaultPersistence) {
    this.#session = session;
    this.#detector = detector;
    this.#persistence = persistence;
    this.#vault = new PiiVault(detector);
    // Nothing read yet: the first use loads what is stored.
    this.#unsure = persistence !== undefined;
  }

  get persistent(): boolean {
    return this.#persistence !== undefined;
  }

  /** Distinct values this copy holds. */
  get size(): number {
    return this.#vault.size;
  }

  /**
   * Reloads this copy when the stored vault is not the revision it holds
   * (another replica added tokens, or the session was deleted): call it before
   * an execution, so tokens issued elsewhere turn back into their values here.
   * Rejects when the store does not answer (`StoreError`) or the vault does
   * not open with this key (`PrivacyError`).
   */
  refresh(): Promise<void> {
    const persistence = this.#persistence;
    if (!persistence) return Promise.resolve();
    return this.#inTurn(async () => {
      if (this.#unsure || (await persistence.store.revision(this.#session)) !== this.#revision)
        await this.#load(persistence);
    });
  }

  detokenize(text: string): string {
    return this.#vault.detokenize(text);
  }

  detokenizeValue(value: unknown): unknown {
    return this.#vault.detokenizeValue(value);
  }

  tokenizeAsync(text: string, options?: ChunkedScanOptions): Promise<string> {
    return this.tokenizeTogether((vault) => vault.tokenizeAsync(text, options));
  }

  tokenizeValueAsync(value: unknown, options?: ChunkedScanOptions): Promise<unknown> {
    return this.tokenizeTogether((vault) => vault.tokenizeValueAsync(value, options));
  }

  /**
   * Runs `fn` on this copy and, when it added values, commits them before
   * resolving; on losing the commit to another replica, reloads and runs `fn`
   * again. Rejects (nothing handed out) when the store fails or keeps losing.
   */
  tokenizeTogether<T>(fn: (vault: TokenVault) => Promise<T>): Promise<T> {
    const persistence = this.#persistence;
    if (!persistence) return this.#counted(fn);
    return this.#inTurn(async () => {
      if (this.#unsure) await this.#load(persistence);
      for (let attempt = 1; ; attempt++) {
        const size = this.#vault.size;
        const before = this.#vault.replacedByKind();
        let out: T;
        try {
          out = await fn(this.#vault);
          if (this.#vault.size !== size && !(await this.#commit(persistence))) {
            if (attempt >= MAX_COMMIT_ATTEMPTS) {
              throw new PrivacyError(
                "privacy.vault_contended",
                `the PII vault of session ${JSON.stringify(this.#session)} changed under ${attempt} commits in a row; try again`,
                { attempts: attempt },
              );
            }
            await this.#load(persistence);
            continue;
          }
        } catch (error) {
          // Values this copy took but could not commit must not stay: dropped now (new entries come
          // last), and the copy reloaded before its next use.
          if (this.#vault.size !== size) {
            this.#vault = PiiVault.fromSnapshot(
              { version: 1, entries: this.#vault.snapshot().entries.slice(0, size) },
              this.#detector,
            );
            this.#unsure = true;
          }
          throw error;
        }
        this.#count(this.#vault.replacedSince(before));
        return out;
      }
    });
  }

  /** Pieces of personal data replaced by tokens so far, by kind. */
  replacedByKind(): Map<string, number> {
    return new Map(this.#replaced);
  }

  /** Pieces replaced by kind since `before` (a `replacedByKind()` taken earlier); kinds with none left out. */
  replacedSince(before: ReadonlyMap<string, number>): Record<string, number> {
    return replacedSince(this.#replaced, before);
  }

  async #counted<T>(fn: (vault: TokenVault) => Promise<T>): Promise<T> {
    const before = this.#vault.replacedByKind();
    const out = await fn(this.#vault);
    this.#count(this.#vault.replacedSince(before));
    return out;
  }

  #count(added: Record<string, number>): void {
    for (const [kind, count] of Object.entries(added))
      this.#replaced.set(kind, (this.#replaced.get(kind) ?? 0) + count);
  }

  /** Writes this copy over the revision it was loaded at; false when another writer got there first. */
  async #commit({ store, key }: VaultPersistence): Promise<boolean> {
    const sealed = Buffer.from(sealVault(this.#vault, key, this.#session));
    const revision = await store.put(this.#session, sealed, this.#revision);
    if (revision === undefined) return false;
    this.#revision = revision;
    return true;
  }

  /** Replaces this copy with the stored vault (an empty one when none is stored: the session was deleted). */
  async #load({ store, key }: VaultPersistence): Promise<void> {
    this.#unsure = true;
    const stored = await store.get(this.#session);
    this.#vault = stored
      ? openVault(Buffer.from(stored.blob).toString("utf8"), key, this.#session, this.#detector)
      : new PiiVault(this.#detector);
    this.#revision = stored?.revision;
    this.#unsure = false;
  }

  #inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(fn, fn);
    this.#turn = run.catch(() => {});
    return run;
  }
}
