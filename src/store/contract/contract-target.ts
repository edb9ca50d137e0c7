import type { SharedStore, StoreChange } from "../domains.ts";

/** What the contract suite runs against: one engine, opened fresh for each test. */
export interface ContractTarget {
  /** A new store on a new, empty database, reading the time from `now`. */
  open(now: () => number): Promise<SharedStore>;
  /**
   * Two stores on one new database, as two replicas would have; absent when
   * the engine cannot share one (SQLite in memory): the replica tests are not declared.
   */
  openPair?: ((now: () => number) => Promise<[SharedStore, SharedStore]>) | undefined;
  /** Whether a store hears the changes made through the other of a pair (PostgreSQL: LISTEN/NOTIFY). */
  sharesChanges: boolean;
  /** Whether `audit.openJournal()` returns a journal (SQLite in a data directory). */
  keepsJournal: boolean;
}

/** A clock tests move by hand: expiry and rate windows without waiting. */
export class ManualClock {
  time = 1_750_000_000_000;
  readonly now = (): number => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

/** Opens a store, runs `fn`, and closes it whatever happens. */
export async function withStore(
  target: ContractTarget,
  fn: (store: SharedStore, clock: ManualClock) => Promise<void>,
): Promise<void> {
  const clock = new ManualClock();
  const store = await target.open(clock.now);
  try {
    await fn(store, clock);
  } finally {
    await store.close();
  }
}

/** Opens a pair of stores on one database, runs `fn`, and closes both. */
export async function withPair(
  openPair: (now: () => number) => Promise<[SharedStore, SharedStore]>,
  fn: (a: SharedStore, b: SharedStore, clock: ManualClock) => Promise<void>,
): Promise<void> {
  const clock = new ManualClock();
  const [a, b] = await openPair(clock.now);
  try {
    await fn(a, b, clock);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

/** A predicate for `assert.rejects`: the error carries `code`. */
export function hasCode(code: string): (error: unknown) => boolean {
  return (error) => (error as { code?: unknown }).code === code;
}

/** The first change `store` hears that `matches`, or a rejection after `timeoutMs`. */
export function nextChange(
  store: SharedStore,
  matches: (change: StoreChange) => boolean,
  timeoutMs = 5_000,
): Promise<StoreChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      remove();
      reject(new Error(`no matching store change within ${timeoutMs} ms`));
    }, timeoutMs);
    const remove = store.onChange((change) => {
      if (!matches(change)) return;
      clearTimeout(timer);
      remove();
      resolve(change);
    });
  });
}

export const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);
export const textOf = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);
