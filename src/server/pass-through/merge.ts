import type { PassThroughSource } from "./source.ts";

/** MCP tool and prompt names are at most 128 characters (spec 2025-11-25). */
const MAX_NAME_LENGTH = 128;

/** Where one item of a merged list comes from: its server and the item as that server listed it. */
export interface Owner<T> {
  source: PassThroughSource;
  upstream: T;
}

/** A front-end list: the gateway's own items first, then each passed-through server's, without clashes. */
export interface Merged<T> {
  items: T[];
  /** The gateway's own items (they come first in `items`). */
  local: readonly T[];
  /** Exposed key (prefixed name, URI or URI template) → the server that answers for it. */
  owners: Map<string, Owner<T>>;
}

/** How one family's items are keyed and renamed on the front end. */
export interface FamilySpec<T> {
  /** "tool", "prompt", "resource", "resource template": for messages. */
  label: string;
  /** The key clients address the item by, as the upstream lists it. */
  key(item: T): string;
  /** The item as the front end lists it (a prefixed copy for names; unchanged for URIs). */
  expose(item: T, source: PassThroughSource): T;
  /** The exposed key of `item` (after `expose`). */
  exposedKey(item: T, source: PassThroughSource): string;
  /** Names are bounded; URIs are not. */
  bounded: boolean;
}

/** Says each distinct problem once per registration: lists are rebuilt often. */
export class OnceWarner {
  private readonly said = new Set<string>();
  constructor(private readonly sink: (message: string) => void) {}

  warn(message: string): void {
    if (this.said.has(message)) return;
    this.said.add(message);
    this.sink(message);
  }
}

/**
 * The gateway's own items win, then servers in `passThrough` order: a later item whose
 * exposed key is taken is left out (and said once), so every exposed key has exactly
 * one owner and calls route the same way the list reads.
 */
export function mergeFamily<T>(
  spec: FamilySpec<T>,
  local: readonly T[],
  remote: ReadonlyArray<{ source: PassThroughSource; items: readonly T[] }>,
  warner: OnceWarner,
): Merged<T> {
  const items = [...local];
  const owners = new Map<string, Owner<T>>();
  const taken = new Map<string, string>(local.map((item) => [spec.key(item), "the gateway"]));
  for (const { source, items: upstreamItems } of remote) {
    for (const upstream of upstreamItems) {
      const key = spec.exposedKey(upstream, source);
      if (spec.bounded && key.length > MAX_NAME_LENGTH) {
        warner.warn(
          `pass-through: ${spec.label} "${key}" of server "${source.server}" is left out: longer than ${MAX_NAME_LENGTH} characters with its prefix`,
        );
        continue;
      }
      const holder = taken.get(key);
      if (holder !== undefined) {
        warner.warn(
          `pass-through: ${spec.label} "${key}" of server "${source.server}" is left out: ${holder} already offers that ${spec.label === "resource" ? "URI" : "name"} (set a different toolscript.passThrough.${source.server}.prefix)`,
        );
        continue;
      }
      taken.set(key, `server "${source.server}"`);
      owners.set(key, { source, upstream });
      items.push(spec.expose(upstream, source));
    }
  }
  return { items, local, owners };
}

/** Tools and prompts: addressed by name, shown as `<prefix><name>`. */
export function namedFamily<T extends { name: string }>(label: string): FamilySpec<T> {
  return {
    label,
    key: (item) => item.name,
    exposedKey: (item, source) => `${source.prefix}${item.name}`,
    expose: (item, source) =>
      source.prefix === "" ? item : { ...item, name: `${source.prefix}${item.name}` },
    bounded: true,
  };
}

/** Resources and templates: addressed by URI (or URI template), which must stay as the upstream wrote it. */
export function uriFamily<T>(label: string, key: (item: T) => string): FamilySpec<T> {
  return { label, key, exposedKey: key, expose: (item) => item, bounded: false };
}
