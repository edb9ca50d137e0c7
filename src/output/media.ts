import { formatCount } from "./format-number.ts";
import { mediaCost } from "./media-size.ts";

/** An MCP image or audio content block, as the client receives it. */
export interface MediaBlock {
  type: "image" | "audio";
  data: string;
  mimeType: string;
}

/** What the returned value carries in place of a media block's base64. */
export interface MediaPlaceholder {
  type: "image" | "audio";
  mimeType: string;
  bytes: number;
  /** Estimated tokens the model pays for it (see media-size.ts). */
  tokens: number;
  width?: number;
  height?: number;
  seconds?: number;
  /** Where it went: "content block N of this answer", or why it was left out. */
  sent: string;
}

export interface ExtractedMedia {
  /** The value with each media block replaced by its placeholder (the same value when there were none). */
  value: unknown;
  /** The blocks that fit, in order, to send as content blocks. */
  blocks: MediaBlock[];
  /** Their estimated tokens. */
  tokens: number;
  /** Blocks left out (over the token budget or the byte cap). */
  dropped: number;
  /** A sentence for the answer when some were left out. */
  note?: string;
}

export interface MediaLimits {
  /** Tokens the kept media may use in all. */
  maxTokens: number;
  /** Bytes (base64) the kept media may use in all: they travel in the same MCP message as the text. */
  maxBytes: number;
}

/** A returned value is searched for media this deep, and through at most this many containers and items. */
const MAX_DEPTH = 6;
const MAX_VISITS = 10_000;

/**
 * Finds MCP image and audio blocks (`{ type: "image" | "audio", data, mimeType }`)
 * in a returned value — the value itself, or inside arrays and objects near its
 * top, as a tool result shapes them — and takes them out: each becomes a small
 * placeholder, and those that fit the limits are returned to be sent as real
 * content blocks, so the model sees an image instead of base64 text. The walk
 * is bounded and never reads the base64 beyond a header.
 */
export function extractMedia(value: unknown, limits: MediaLimits): ExtractedMedia {
  const state = { visits: 0, blocks: [] as MediaBlock[], tokens: 0, bytes: 0, dropped: 0, limits };
  const out = visit(value, 0, state);
  const note =
    state.dropped === 0
      ? undefined
      : `Note: ${formatCount(state.dropped)} image/audio block${state.dropped === 1 ? " was" : "s were"} left out: over the output budget (${formatCount(limits.maxTokens)} tokens for media) or the answer's size cap; return fewer or smaller ones, or pass a larger maxTokens.`;
  return {
    value: out,
    blocks: state.blocks,
    tokens: state.tokens,
    dropped: state.dropped,
    ...(note && { note }),
  };
}

type State = {
  visits: number;
  blocks: MediaBlock[];
  tokens: number;
  bytes: number;
  dropped: number;
  limits: MediaLimits;
};

function visit(value: unknown, depth: number, state: State): unknown {
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH || ++state.visits > MAX_VISITS) {
    return value;
  }
  if (isMediaBlock(value)) return take(value, state);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length && state.visits <= MAX_VISITS; i++) {
      const item = visit(value[i], depth + 1, state);
      if (item !== value[i]) {
        copy ??= [...value];
        copy[i] = item;
      }
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    if (state.visits > MAX_VISITS) break;
    if (!Object.hasOwn(value, key)) continue;
    const child = (value as Record<string, unknown>)[key];
    const item = visit(child, depth + 1, state);
    if (item !== child) {
      copy ??= { ...(value as Record<string, unknown>) };
      copy[key] = item;
    }
  }
  return copy ?? value;
}

/** Plain base64, as MCP content carries it (checked only on blocks small enough to send). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function take(block: MediaBlock, state: State): MediaPlaceholder | MediaBlock {
  const cost = mediaCost(block.type, block.data);
  const fits =
    state.tokens + cost.tokens <= state.limits.maxTokens &&
    state.bytes + block.data.length <= state.limits.maxBytes;
  // Not base64: a client would fail to decode it; it stays in the value as the program returned it.
  if (fits && !BASE64.test(block.data)) return block;
  if (fits) {
    state.blocks.push({ type: block.type, data: block.data, mimeType: block.mimeType });
    state.tokens += cost.tokens;
    state.bytes += block.data.length;
  } else {
    state.dropped++;
  }
  return {
    type: block.type,
    mimeType: block.mimeType,
    bytes: cost.bytes,
    tokens: cost.tokens,
    ...(cost.size && { width: cost.size.width, height: cost.size.height }),
    ...(cost.seconds !== undefined &&
      block.type === "audio" && { seconds: Math.round(cost.seconds * 10) / 10 }),
    sent: fits
      ? `as ${block.type} content block ${state.blocks.length} of this answer`
      : "left out: over the output budget or the answer's size cap",
  };
}

/** An MCP image/audio content block: `type`, base64 `data` and a matching `mimeType`. */
export function isMediaBlock(value: unknown): value is MediaBlock {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const { type, data, mimeType } = value as Record<string, unknown>;
  return (
    (type === "image" || type === "audio") &&
    typeof data === "string" &&
    typeof mimeType === "string" &&
    mimeType.startsWith(`${type}/`)
  );
}
