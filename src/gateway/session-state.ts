import type { CountryCode } from "libphonenumber-js/max";
import type { ToolscriptSettings } from "../config/settings.ts";
import type { ExecutionTokens } from "../output/accounting.ts";
import { SessionTokenTotals } from "../output/session-totals.ts";
import { createPiiDetector, type PiiDetector } from "../privacy/detect.ts";
import type { ExecutionError } from "../sandbox/types.ts";
import { SessionManager } from "../session/session-manager.ts";
import type { Workspace } from "../session/workspace.ts";
import type { SharedStore } from "../store/domains.ts";
import type { Logger } from "./logger.ts";
import { SessionVault, type VaultPersistence } from "./session-vault.ts";
import { storeFailure } from "./store-failure.ts";

/** Idle expiry counts in days; marking a session used more often than this buys nothing but writes. */
const SESSION_TOUCH_MS = 30_000;

interface SessionState {
  vault: SessionVault;
  totals: SessionTokenTotals;
}

/** What this replica last learned of a session. */
interface SeenSession {
  /** null: the local client. */
  owner: string | null;
  /** When this replica last marked it used in the store (0: no store, known from memory only). */
  touchedAt: number;
  /** Its creation time in the store: another one means it was deleted and made again meanwhile. */
  createdAt?: number | undefined;
}

/**
 * Everything the gateway keeps per session: the store's session record and
 * workspace, the PII vault (persisted encrypted when a key is configured),
 * and the running token totals.
 *
 * On a shared store other replicas use the same sessions: what this one
 * caches (owners, when it last marked a session used, vault copies) is
 * checked against the store at the start of each execution (`touch`,
 * `refreshVault`). A session another replica deleted or expired is made
 * again, owned by the client now using it, and what this replica kept of the
 * old one is dropped. A write during an execution racing such a delete
 * recreates the session through the store (its files and vault are gone).
 */
export class SessionStates {
  readonly #states = new Map<string, SessionState>();
  readonly #seen = new Map<string, SeenSession>();
  readonly #detector: PiiDetector;
  readonly #key: Buffer | undefined;
  #store: SharedStore | undefined;
  #sessions: SessionManager | undefined;
  #results = 0;

  constructor(privacy: ToolscriptSettings["privacy"], key: Buffer | undefined) {
    this.#detector = createPiiDetector({
      // The config checks the shape (two capital letters); libphonenumber-js knows the codes.
      phoneRegion: privacy.phoneRegion as CountryCode | null,
      patterns: privacy.patterns,
    });
    this.#key = key;
  }

  /** Where sessions, files and vaults persist; without it everything lives in memory only. */
  attach(store: SharedStore, logger: Logger): void {
    this.#store = store;
    this.#sessions ??= new SessionManager(store.sessions, {
      onError: (error) =>
        logger.error(`session sweep failed: ${error instanceof Error ? error.message : String(error)}`),
      onExpired: (ids) => {
        for (const id of ids) this.#forget(id);
      },
    });
  }

  /** Whether vaults are stored (sealed with the vault key), so tokens outlive the process and cross replicas. */
  get persistent(): boolean {
    return this.#store !== undefined && this.#key !== undefined;
  }

  /**
   * Marks the session used by `client` (null: the local client), creating it
   * owned by that client; undefined when fine, else why it is refused. A session
   * another client owns is "unknown" to this one, and left untouched. The first
   * store access of an execution: a store that does not answer is reported
   * here (`StoreUnavailable`), before anything runs.
   */
  async touch(session: string, client: string | null = null): Promise<ExecutionError | undefined> {
    const seen = this.#seen.get(session);
    const sessions = this.#sessions;
    if (!sessions) {
      // No store yet: ownership lives in memory only.
      if (seen !== undefined && seen.owner !== client) return unknownSession(session);
      this.#seen.set(session, { owner: client, touchedAt: 0 });
      return undefined;
    }
    const now = Date.now();
    try {
      if (seen?.owner === client && now - seen.touchedAt < SESSION_TOUCH_MS) {
        // Marked used moments ago: a read (no write) says it is still there, still this
        // client's and the same session (another replica may have deleted it since).
        const record = await sessions.get(session);
        if (record?.owner === client && record.createdAt === seen.createdAt) return undefined;
      }
      const record = await sessions.claim(session, client);
      if (!record) {
        this.#forget(session);
        return unknownSession(session);
      }
      // Deleted (elsewhere) and made again: what this replica kept of the old session goes.
      if (seen?.createdAt !== undefined && seen.createdAt !== record.createdAt) this.#states.delete(session);
      this.#seen.set(session, { owner: client, touchedAt: now, createdAt: record.createdAt });
      return undefined;
    } catch (error) {
      return storeFailure(error, this.#store?.location);
    }
  }

  /** Why `client` may not use `session` (another client owns it, or a bad id); creates nothing. */
  async refusal(session: string, client: string | null = null): Promise<ExecutionError | undefined> {
    let owner: string | null | undefined;
    if (!this.#sessions) owner = this.#seen.get(session)?.owner;
    else {
      try {
        // Always asked: another replica may have handed the name to another client since.
        owner = (await this.#sessions.get(session))?.owner;
      } catch (error) {
        return storeFailure(error, this.#store?.location);
      }
    }
    return owner === undefined || owner === client ? undefined : unknownSession(session);
  }

  /** The session's files; undefined without a store. Each call reaches the store. */
  workspace(session: string): Workspace | undefined {
    return this.#sessions?.workspace(session);
  }

  /** Writes the full value of an answer cut to its budget where the next execution can read it. */
  async saveFullValue(session: string, value: unknown): Promise<string | undefined> {
    const workspace = this.workspace(session);
    if (!workspace) return undefined;
    const path = `results/execution-${Date.now()}-${++this.#results}.json`;
    try {
      await workspace.writeFile(path, JSON.stringify(value));
      return path;
    } catch {
      return undefined; // over quota, or the store failed: the answer then just says it was reduced
    }
  }

  /** The session's vault on this replica; `refreshVault` first in each execution. */
  vault(session: string): SessionVault {
    return this.#state(session).vault;
  }

  /**
   * Brings the session's vault up to the stored one (tokens another replica
   * issued); undefined when done, else the error to answer (the store does not
   * answer, or the vault does not open with this key).
   */
  async refreshVault(session: string): Promise<ExecutionError | undefined> {
    try {
      await this.vault(session).refresh();
      return undefined;
    } catch (error) {
      return storeFailure(error, this.#store?.location);
    }
  }

  addTokens(session: string, tokens: ExecutionTokens): SessionTokenTotals {
    const state = this.#state(session);
    state.totals.add(tokens);
    return state.totals;
  }

  close(): void {
    this.#sessions?.close();
  }

  #state(session: string): SessionState {
    let state = this.#states.get(session);
    if (!state) {
      state = {
        vault: new SessionVault(session, this.#detector, this.#persistence()),
        totals: new SessionTokenTotals(),
      };
      this.#states.set(session, state);
    }
    return state;
  }

  #persistence(): VaultPersistence | undefined {
    return this.#store && this.#key ? { store: this.#store.vaults, key: this.#key } : undefined;
  }

  #forget(session: string): void {
    this.#states.delete(session);
    this.#seen.delete(session);
  }
}

/** Says nothing of whether the session exists for someone else. */
function unknownSession(session: string): ExecutionError {
  return {
    kind: "runtime",
    name: "SessionError",
    message: `unknown session ${JSON.stringify(session.slice(0, 200))}`,
  };
}
