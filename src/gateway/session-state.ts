import type { CountryCode } from "libphonenumber-js/max";
import type { ToolscriptSettings } from "../config/settings.ts";
import type { ExecutionTokens } from "../output/accounting.ts";
import { SessionTokenTotals } from "../output/session-totals.ts";
import { createPiiDetector, type PiiDetector } from "../privacy/detect.ts";
import { PiiVault } from "../privacy/vault.ts";
import { openVault, sealVault } from "../privacy/vault-crypto.ts";
import type { ExecutionError } from "../sandbox/types.ts";
import { SessionManager } from "../session/session-manager.ts";
import type { Workspace } from "../session/workspace.ts";
import type { Store } from "../store/types.ts";
import type { Logger } from "./logger.ts";

/** Idle expiry counts in days; marking a session used more often than this buys nothing but fsyncs. */
const SESSION_TOUCH_MS = 30_000;

interface SessionState {
  vault: PiiVault;
  totals: SessionTokenTotals;
  /** Entries in the vault when it was last saved; saved again only when it grew. */
  savedSize: number;
}

/**
 * Everything the gateway keeps per session: the store's session record and
 * workspace, the PII vault (persisted encrypted when a key is configured),
 * and the running token totals.
 */
export class SessionStates {
  readonly #states = new Map<string, SessionState>();
  readonly #touched = new Map<string, number>();
  /** Owner of each session seen (null: the local client), so checking it costs no query per call. */
  readonly #owners = new Map<string, string | null>();
  readonly #detector: PiiDetector;
  readonly #key: Buffer | undefined;
  #store: Store | undefined;
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
  attach(store: Store, logger: Logger): void {
    this.#store = store;
    this.#sessions ??= new SessionManager(store, {
      onError: (error) =>
        logger.error(`session sweep failed: ${error instanceof Error ? error.message : String(error)}`),
      onExpired: (ids) => {
        for (const id of ids) {
          this.#states.delete(id);
          this.#touched.delete(id);
          this.#owners.delete(id);
        }
      },
    });
  }

  get persistent(): boolean {
    return this.#store !== undefined && this.#key !== undefined;
  }

  /**
   * Marks the session used by `client` (null: the local client), creating it
   * owned by that client; undefined when fine, else why it is refused. A session
   * another client owns is "unknown" to this one, and left untouched.
   */
  touch(session: string, client: string | null = null): ExecutionError | undefined {
    const known = this.#owners.get(session);
    if (known !== undefined && known !== client) return unknownSession(session);
    if (!this.#sessions) {
      // No store yet: ownership lives in memory only.
      this.#owners.set(session, client);
      return undefined;
    }
    const now = Date.now();
    if (known !== undefined && now - (this.#touched.get(session) ?? 0) < SESSION_TOUCH_MS) return undefined;
    try {
      if (!this.#sessions.claim(session, client)) return unknownSession(session);
      this.#owners.set(session, client);
      this.#touched.set(session, now);
      return undefined;
    } catch (error) {
      return sessionError(error instanceof Error ? error.message : String(error));
    }
  }

  /** Why `client` may not use `session` (another client owns it, or a bad id); creates nothing. */
  refusal(session: string, client: string | null = null): ExecutionError | undefined {
    let owner = this.#owners.get(session);
    try {
      owner ??= this.#sessions?.get(session)?.owner;
    } catch (error) {
      return sessionError(error instanceof Error ? error.message : String(error));
    }
    return owner === undefined || owner === client ? undefined : unknownSession(session);
  }

  workspace(session: string): Workspace | undefined {
    return this.#sessions?.workspace(session);
  }

  /** Writes the full value of an answer cut to its budget where the next execution can read it. */
  saveFullValue(session: string, value: unknown): string | undefined {
    const workspace = this.workspace(session);
    if (!workspace) return undefined;
    const path = `results/execution-${Date.now()}-${++this.#results}.json`;
    try {
      workspace.writeFile(path, JSON.stringify(value));
      return path;
    } catch {
      return undefined; // over quota, most likely: the answer then just says it was reduced
    }
  }

  vault(session: string): PiiVault {
    return this.#state(session).vault;
  }

  addTokens(session: string, tokens: ExecutionTokens): SessionTokenTotals {
    const state = this.#state(session);
    state.totals.add(tokens);
    return state.totals;
  }

  /** Saves the session's vault (encrypted) if it has new entries. */
  save(session: string): void {
    const state = this.#states.get(session);
    if (!state || !this.#store || !this.#key) return;
    const size = state.vault.size;
    if (size === state.savedSize) return;
    this.#store.putVault(session, Buffer.from(sealVault(state.vault, this.#key, session)));
    state.savedSize = size;
  }

  close(): void {
    this.#sessions?.close();
  }

  #state(session: string): SessionState {
    let state = this.#states.get(session);
    if (state) return state;
    let vault = new PiiVault(this.#detector);
    const sealed = this.#key ? this.#store?.getVault(session) : undefined;
    if (sealed && this.#key)
      vault = openVault(Buffer.from(sealed).toString("utf8"), this.#key, session, this.#detector);
    state = { vault, totals: new SessionTokenTotals(), savedSize: vault.size };
    this.#states.set(session, state);
    return state;
  }
}

function sessionError(message: string): ExecutionError {
  return { kind: "runtime", name: "SessionError", message };
}

/** Says nothing of whether the session exists for someone else. */
function unknownSession(session: string): ExecutionError {
  return sessionError(`unknown session ${JSON.stringify(session.slice(0, 200))}`);
}
