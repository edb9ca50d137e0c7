import type { PassThroughSource } from "./source.ts";

/**
 * Subscribed front-end sessions per upstream URI, shared by every registration of the
 * same source object: the upstream is subscribed by the first session and unsubscribed
 * after the last, while each session gets `resources/updated` only for its own URIs.
 */
const counts = new WeakMap<PassThroughSource, Map<string, number>>();

function countsOf(source: PassThroughSource): Map<string, number> {
  let map = counts.get(source);
  if (map === undefined) {
    map = new Map();
    counts.set(source, map);
  }
  return map;
}

/** One front-end session's subscriptions. */
export class SessionSubscriptions {
  private readonly mine = new Map<string, PassThroughSource>();

  has(uri: string): boolean {
    return this.mine.has(uri);
  }

  async subscribe(source: PassThroughSource, uri: string): Promise<void> {
    if (this.mine.has(uri)) return;
    const map = countsOf(source);
    const before = map.get(uri) ?? 0;
    map.set(uri, before + 1);
    this.mine.set(uri, source);
    if (before > 0) return;
    try {
      await source.subscribeResource(uri);
    } catch (error) {
      this.release(uri);
      throw error;
    }
  }

  async unsubscribe(uri: string): Promise<void> {
    const source = this.mine.get(uri);
    if (source === undefined) return;
    if (this.release(uri)) await source.unsubscribeResource(uri);
  }

  /** Drops every subscription of this session (it closed); errors are the caller's to report. */
  async clear(): Promise<unknown[]> {
    const uris = [...this.mine.keys()];
    const settled = await Promise.allSettled(uris.map((uri) => this.unsubscribe(uri)));
    return settled.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason] : []));
  }

  /** True when no session holds `uri` any more, so the upstream subscription should end. */
  private release(uri: string): boolean {
    const source = this.mine.get(uri);
    if (source === undefined) return false;
    this.mine.delete(uri);
    const map = countsOf(source);
    const left = (map.get(uri) ?? 1) - 1;
    if (left > 0) {
      map.set(uri, left);
      return false;
    }
    map.delete(uri);
    return true;
  }
}
