import { randomUUID } from "node:crypto";
import type { SessionStore } from "../store/domains.ts";
import type { SessionRecord } from "../store/types.ts";
import { resolveQuotas, type WorkspaceQuotas } from "./quotas.ts";
import { assertSessionId } from "./session-id.ts";
import { Workspace } from "./workspace.ts";

/** A session nobody used for a week is gone, with its files, vault and private skills. */
export const DEFAULT_SESSION_IDLE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const DEFAULT_SESSION_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

export interface SessionManagerOptions {
  /** Idle time after which a session expires, unless it has its own TTL. */
  idleTtlMs?: number | undefined;
  /** How often the sweeper looks for expired sessions; 0 disables it (call `expire()` yourself). */
  sweepIntervalMs?: number | undefined;
  quotas?: Partial<WorkspaceQuotas> | undefined;
  /** Called with the ids each sweep removed (logging). */
  onExpired?: ((ids: string[]) => void) | undefined;
  /** Called when a sweep fails (e.g. the database is locked for longer than the busy timeout). */
  onError?: ((error: unknown) => void) | undefined;
}

/**
 * Sessions over the store's `sessions` domain: create, touch, expire, delete,
 * and each session's workspace. Deleting or expiring a session removes all its
 * data in one transaction (the store's foreign keys cascade). Nothing is cached
 * here: on a shared store every replica sees the same sessions.
 */
export class SessionManager {
  readonly idleTtlMs: number;
  readonly quotas: WorkspaceQuotas;
  readonly #store: SessionStore;
  readonly #onExpired: ((ids: string[]) => void) | undefined;
  readonly #onError: ((error: unknown) => void) | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(store: SessionStore, options: SessionManagerOptions = {}) {
    this.#store = store;
    this.idleTtlMs = options.idleTtlMs ?? DEFAULT_SESSION_IDLE_TTL_MS;
    this.quotas = resolveQuotas(options.quotas);
    this.#onExpired = options.onExpired;
    this.#onError = options.onError;
    const interval = options.sweepIntervalMs ?? DEFAULT_SESSION_SWEEP_INTERVAL_MS;
    if (interval > 0) {
      this.#timer = setInterval(() => void this.#sweep(), interval);
      // The sweeper never keeps the process alive on its own.
      this.#timer.unref();
    }
  }

  /** A new session with a random id. */
  create(options: { idleTtlMs?: number | null } = {}): Promise<SessionRecord> {
    return this.#store.touch(randomUUID(), options.idleTtlMs ?? null);
  }

  /**
   * Marks the session used now, creating it if new: call it once per execution.
   * `idleTtlMs` sets its own expiry (`null`: back to the default).
   */
  async touch(id: string, options: { idleTtlMs?: number | null } = {}): Promise<SessionRecord> {
    assertSessionId(id);
    return this.#store.touch(id, options.idleTtlMs);
  }

  /**
   * Marks the session used by `owner` now, creating it owned by `owner` if new;
   * `undefined` when another client owns it (then nothing changes).
   * `owner` null is the local client (stdio, CLI).
   */
  async claim(id: string, owner: string | null): Promise<SessionRecord | undefined> {
    assertSessionId(id);
    return this.#store.claim(id, owner);
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    assertSessionId(id);
    return this.#store.get(id);
  }

  list(): Promise<SessionRecord[]> {
    return this.#store.list();
  }

  /** Deletes the session and all its data; `false` when there was none. */
  async delete(id: string): Promise<boolean> {
    assertSessionId(id);
    return this.#store.delete(id);
  }

  /** Removes every session idle past its TTL now, with its data; returns their ids. */
  expire(): Promise<string[]> {
    return this.#store.deleteIdle(this.idleTtlMs);
  }

  /** The session's files. Reads do not create the session; the first write does. */
  workspace(id: string): Workspace {
    assertSessionId(id);
    return new Workspace(this.#store, id, this.quotas);
  }

  /** Stops the sweeper (the store stays open: its owner closes it). */
  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #sweep(): Promise<void> {
    try {
      const ids = await this.expire();
      if (ids.length > 0) this.#onExpired?.(ids);
    } catch (error) {
      this.#onError?.(error);
    }
  }
}
