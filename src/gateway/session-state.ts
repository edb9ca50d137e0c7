import type { CountryCode } from "libphonenumber-js/max";
import type { ToolscriptSettings } from "../config/settings.ts";
import type { ExecutionTokens } from "../output/accounting.ts";
import { SessionTokenTotals } from "../output/session-totals.ts";
import { createPiiDetector, type PiiDetector } from "../privacy/detect.ts";
import { PiiVault } from "../privacy/vault.ts";
import { openVault, sealVault } from "../privacy/vault-crypto.ts";
import type { Store } from "../store/types.ts";

interface SessionState {
  vault: PiiVault;
  totals: SessionTokenTotals;
  /** Entries in the vault when it was last saved; saved again only when it grew. */
  savedSize: number;
}

/**
 * What the gateway keeps per session beside the store's files: the PII vault
 * (persisted encrypted when a key is configured) and the running token totals.
 */
export class SessionStates {
  readonly #states = new Map<string, SessionState>();
  readonly #detector: PiiDetector;
  readonly #key: Buffer | undefined;
  #store: Store | undefined;

  constructor(privacy: ToolscriptSettings["privacy"], key: Buffer | undefined) {
    this.#detector = createPiiDetector({
      // The config checks the shape (two capital letters); libphonenumber-js knows the codes.
      phoneRegion: privacy.phoneRegion as CountryCode | null,
      patterns: privacy.patterns,
    });
    this.#key = key;
  }

  /** Where vaults persist; without a store (or a key) they live in memory only. */
  attach(store: Store): void {
    this.#store = store;
  }

  get persistent(): boolean {
    return this.#store !== undefined && this.#key !== undefined;
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

  forget(session: string): void {
    this.#states.delete(session);
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
