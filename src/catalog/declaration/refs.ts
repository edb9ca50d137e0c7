import { toIdentifier, toPascalCase } from "../naming.ts";
import { isRecord } from "./json.ts";
import type { NameAllocator } from "./name-allocator.ts";

/** How a schema being rendered reaches the named types of its document. */
export interface RefResolver {
  /**
   * The type name for a `$ref`, or undefined when it cannot be expressed (external,
   * dangling, or a type alias that would reference itself). `direct` is true when the
   * reference is not nested inside an object or array type.
   */
  refName(ref: string, direct: boolean): string | undefined;
}

/** A schema that gets its own named declaration: a document root or a local `$ref` target. */
export interface NamedSchema {
  readonly key: string;
  readonly name: string;
  readonly schema: unknown;
  readonly document: number;
  /** JSON pointer segments from the document root (empty for the root). */
  readonly segments: readonly string[];
}

const DEFINITION_CONTAINERS = new Set(["$defs", "definitions"]);
const MAX_POINTER_SEGMENTS = 32;

/** Segments of a local JSON pointer reference (`#/$defs/a~1b` → `["$defs", "a/b"]`), or undefined. */
export function parseLocalRef(ref: string): string[] | undefined {
  if (!ref.startsWith("#")) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === "") return [];
  if (!fragment.startsWith("/")) return undefined; // `#anchor` needs `$anchor` lookup: not supported
  const segments = fragment
    .slice(1)
    .split("/")
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
  return segments.length > MAX_POINTER_SEGMENTS ? undefined : segments;
}

function entryKey(document: number, segments: readonly string[]): string {
  return `${document}:${JSON.stringify(segments)}`;
}

function resolvePointer(root: unknown, segments: readonly string[]): unknown {
  let node = root;
  for (const segment of segments) {
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(segment)) node = node[Number(segment)];
    else if (isRecord(node) && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}

/** `$ref`s in positions a type alias would expand eagerly (not nested in an object or array). */
function directRefs(schema: unknown, out: string[], depth = 0): string[] {
  if (!isRecord(schema) || depth > MAX_POINTER_SEGMENTS) return out;
  if (typeof schema.$ref === "string") {
    out.push(schema.$ref);
    return out;
  }
  if ("const" in schema || Array.isArray(schema.enum)) return out;
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const members = schema[key];
    if (Array.isArray(members)) for (const member of members) directRefs(member, out, depth + 1);
  }
  return out;
}

/**
 * The named types of one declaration file: document roots (input, output) and the local
 * `$ref` targets they use, named `<Prefix><Name>` and queued for rendering the first
 * time they are referenced, so unused `$defs` cost nothing.
 */
export class DefinitionRegistry {
  readonly #prefix: string;
  readonly #names: NameAllocator;
  readonly #documents: unknown[] = [];
  readonly #entries = new Map<string, NamedSchema>();
  readonly #pending: NamedSchema[] = [];
  readonly #referenced = new Set<string>();

  constructor(prefix: string, names: NameAllocator) {
    this.#prefix = prefix;
    this.#names = names;
  }

  /** Registers a document root under a chosen name; returns its entry. */
  addDocument(schema: unknown, name: string): NamedSchema {
    const document = this.#documents.push(schema) - 1;
    const entry: NamedSchema = { key: entryKey(document, []), name, schema, document, segments: [] };
    this.#entries.set(entry.key, entry);
    return entry;
  }

  /** True when some `$ref` of the file points at this entry (so it must be declared by name). */
  isReferenced(entry: NamedSchema): boolean {
    return this.#referenced.has(entry.key);
  }

  /** Next `$ref` target waiting to be declared, in order of first reference. */
  takePending(): NamedSchema | undefined {
    return this.#pending.shift();
  }

  /** The resolver used while rendering `owner`'s schema. */
  resolverFor(owner: NamedSchema): RefResolver {
    return {
      refName: (ref, direct) => {
        const candidate = this.#peek(owner.document, ref);
        if (!candidate) return undefined;
        if (direct && this.#reaches(candidate, owner.key, new Set())) return undefined;
        const target = this.#register(candidate);
        this.#referenced.add(target.key);
        return target.name;
      },
    };
  }

  /** Names and queues a `$ref` target the first time it is used. */
  #register(candidate: NamedSchema): NamedSchema {
    const known = this.#entries.get(candidate.key);
    if (known) return known;
    const label = candidate.segments
      .filter((s) => !DEFINITION_CONTAINERS.has(s) && s !== "properties")
      .join("_");
    const name = this.#names.allocate(`${this.#prefix}${toPascalCase(toIdentifier(label))}`);
    const entry: NamedSchema = { ...candidate, name };
    this.#entries.set(entry.key, entry);
    this.#pending.push(entry);
    return entry;
  }

  /** Whether `from` expands eagerly into `targetKey` (a type alias cycle TypeScript rejects). */
  #reaches(from: NamedSchema, targetKey: string, seen: Set<string>): boolean {
    if (from.key === targetKey) return true;
    if (seen.has(from.key)) return false;
    seen.add(from.key);
    for (const ref of directRefs(from.schema, [])) {
      const next = this.#peek(from.document, ref);
      if (next && this.#reaches(next, targetKey, seen)) return true;
    }
    return false;
  }

  /** The entry a `$ref` points at, without naming or queueing it (cycle checks must not declare anything). */
  #peek(document: number, ref: string): NamedSchema | undefined {
    const segments = parseLocalRef(ref);
    if (!segments) return undefined;
    const key = entryKey(document, segments);
    const known = this.#entries.get(key);
    if (known) return known;
    const schema = resolvePointer(this.#documents[document], segments);
    return schema === undefined ? undefined : { key, name: "", schema, document, segments };
  }
}
