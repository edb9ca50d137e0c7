/**
 * Token cost of images and audio sent to the model as content blocks, from
 * their headers only (never a full decode).
 *
 * Images, as Anthropic documents for Claude: `tokens ≈ width × height / 750`,
 * after the image is scaled down to at most 1568 px on its long edge and about
 * 1.15 megapixels, so no image costs more than ~1,600 tokens. An image whose
 * size cannot be read counts as that maximum.
 *
 * Audio: Claude does not take audio and MCP clients differ; the estimate is
 * Gemini's documented 32 tokens per second, the duration read from a WAV
 * header or else assumed at 128 kbit/s (16,000 bytes per second).
 */
const TOKENS_PER_PIXEL = 1 / 750;
const MAX_EDGE_PX = 1568;
const MAX_PIXELS = 1_150_000;
export const MAX_IMAGE_TOKENS = Math.ceil(MAX_PIXELS * TOKENS_PER_PIXEL);
const AUDIO_TOKENS_PER_SECOND = 32;
const ASSUMED_AUDIO_BYTES_PER_SECOND = 16_000;
/** Base64 characters decoded to find a header: JPEG's size marker may follow ~64 KB of EXIF. */
const HEADER_BASE64_CHARS = 128 * 1024;

export interface ImageSize {
  width: number;
  height: number;
}

/** Bytes encoded by a base64 string, from its length (no decoding). */
export function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** The first bytes of base64 `data`, enough for any header this module reads. */
function header(data: string): Buffer {
  const chars = Math.min(data.length, HEADER_BASE64_CHARS);
  return Buffer.from(data.slice(0, chars - (chars % 4)), "base64");
}

/** Width and height from a PNG, GIF, JPEG or WebP header; undefined for anything else. */
export function imageSize(bytes: Buffer): ImageSize | undefined {
  if (
    bytes.length >= 24 &&
    bytes.readUInt32BE(0) === 0x89504e47 &&
    bytes.toString("latin1", 12, 16) === "IHDR"
  ) {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 10 && bytes.toString("latin1", 0, 3) === "GIF") {
    return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  if (
    bytes.length >= 30 &&
    bytes.toString("latin1", 0, 4) === "RIFF" &&
    bytes.toString("latin1", 8, 12) === "WEBP"
  ) {
    return webpSize(bytes);
  }
  return undefined;
}

function jpegSize(bytes: Buffer): ImageSize | undefined {
  let offset = 2;
  while (offset + 9 <= bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] ?? 0;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      offset++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2;
      continue;
    }
    // SOF0–SOF15 carry the size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + bytes.readUInt16BE(offset + 2);
  }
  return undefined;
}

function webpSize(bytes: Buffer): ImageSize | undefined {
  const chunk = bytes.toString("latin1", 12, 16);
  if (chunk === "VP8 ") {
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === "VP8L") {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  }
  return undefined;
}

/** Tokens of an image of `size` as Claude counts them (after its downscaling); the maximum when unknown. */
export function imageTokens(size: ImageSize | undefined): number {
  if (!size || size.width <= 0 || size.height <= 0) return MAX_IMAGE_TOKENS;
  const pixels = size.width * size.height;
  const scale = Math.min(1, MAX_EDGE_PX / Math.max(size.width, size.height), Math.sqrt(MAX_PIXELS / pixels));
  const scaled = Math.round(size.width * scale) * Math.round(size.height * scale);
  return Math.max(1, Math.ceil(scaled * TOKENS_PER_PIXEL));
}

/** Seconds of audio: from a WAV header's byte rate, else at an assumed 128 kbit/s. */
export function audioSeconds(bytes: Buffer, totalBytes: number): number {
  const wav =
    bytes.length >= 32 &&
    bytes.toString("latin1", 0, 4) === "RIFF" &&
    bytes.toString("latin1", 8, 12) === "WAVE";
  const byteRate = wav ? bytes.readUInt32LE(28) : 0;
  return totalBytes / (byteRate > 0 ? byteRate : ASSUMED_AUDIO_BYTES_PER_SECOND);
}

export interface MediaCost {
  bytes: number;
  tokens: number;
  size?: ImageSize;
  seconds?: number;
}

/** Bytes and estimated tokens of one base64 image or audio block. */
export function mediaCost(kind: "image" | "audio", data: string): MediaCost {
  const bytes = base64Bytes(data);
  const head = header(data);
  if (kind === "image") {
    const size = imageSize(head);
    return { bytes, tokens: imageTokens(size), ...(size && { size }) };
  }
  const seconds = audioSeconds(head, bytes);
  return { bytes, tokens: Math.max(1, Math.ceil(seconds * AUDIO_TOKENS_PER_SECOND)), seconds };
}
