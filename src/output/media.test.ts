import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { extractMedia, isMediaBlock } from "./media.ts";
import {
  audioSeconds,
  base64Bytes,
  imageSize,
  imageTokens,
  MAX_IMAGE_TOKENS,
  mediaCost,
} from "./media-size.ts";

function png(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  bytes.writeUInt32BE(13, 8);
  bytes.write("IHDR", 12, "latin1");
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}

function gif(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(13);
  bytes.write("GIF89a", 0, "latin1");
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

function jpeg(width: number, height: number): Buffer {
  // SOI, an APP0 segment of 16 bytes, then SOF0 with the size.
  const app0 = Buffer.concat([Buffer.from([0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(14)]);
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    3,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.alloc(16)]);
}

function webp(chunk: "VP8 " | "VP8L" | "VP8X", width: number, height: number): Buffer {
  const bytes = Buffer.alloc(40);
  bytes.write("RIFF", 0, "latin1");
  bytes.write("WEBP", 8, "latin1");
  bytes.write(chunk, 12, "latin1");
  if (chunk === "VP8 ") {
    bytes.writeUInt16LE(width, 26);
    bytes.writeUInt16LE(height, 28);
  } else if (chunk === "VP8L") {
    bytes.writeUInt32LE(((width - 1) | ((height - 1) << 14)) >>> 0, 21);
  } else {
    bytes.writeUIntLE(width - 1, 24, 3);
    bytes.writeUIntLE(height - 1, 27, 3);
  }
  return bytes;
}

describe("media sizes from headers", () => {
  it("reads PNG, GIF, JPEG and WebP dimensions", () => {
    assert.deepEqual(imageSize(png(640, 480)), { width: 640, height: 480 });
    assert.deepEqual(imageSize(gif(32, 16)), { width: 32, height: 16 });
    assert.deepEqual(imageSize(jpeg(1024, 768)), { width: 1024, height: 768 });
    assert.deepEqual(imageSize(webp("VP8 ", 300, 200)), { width: 300, height: 200 });
    assert.deepEqual(imageSize(webp("VP8L", 300, 200)), { width: 300, height: 200 });
    assert.deepEqual(imageSize(webp("VP8X", 3000, 2000)), { width: 3000, height: 2000 });
    assert.equal(imageSize(Buffer.from("not an image at all, just text")), undefined);
  });

  it("counts images as width × height / 750 after Claude's downscaling", () => {
    assert.equal(imageTokens({ width: 750, height: 1 }), 1);
    assert.equal(imageTokens({ width: 1000, height: 1000 }), 1334);
    // A 4000 x 3000 photo is scaled to ~1.15 MP: ~1,533 tokens, never more than the maximum.
    const photo = imageTokens({ width: 4000, height: 3000 });
    assert.ok(photo > 1400 && photo <= MAX_IMAGE_TOKENS, String(photo));
    assert.equal(imageTokens(undefined), MAX_IMAGE_TOKENS);
  });

  it("counts audio by duration: a WAV's byte rate, else 128 kbit/s", () => {
    const wav = Buffer.alloc(44);
    wav.write("RIFF", 0, "latin1");
    wav.write("WAVE", 8, "latin1");
    wav.writeUInt32LE(32_000, 28);
    assert.equal(audioSeconds(wav, 64_000), 2);
    assert.equal(audioSeconds(Buffer.from("ID3"), 160_000), 10);
    assert.equal(
      mediaCost("audio", Buffer.concat([wav, Buffer.alloc(31_956)]).toString("base64")).tokens,
      32,
    );
  });

  it("measures base64 without decoding it", () => {
    for (const length of [0, 1, 2, 3, 4, 100, 101]) {
      assert.equal(base64Bytes(Buffer.alloc(length).toString("base64")), length);
    }
  });
});

describe("extractMedia", () => {
  const image = { type: "image", data: png(1000, 1000).toString("base64"), mimeType: "image/png" };
  const limits = { maxTokens: 3000, maxBytes: 1024 * 1024 };

  it("takes image blocks out of a tool-shaped value, leaving placeholders", () => {
    const value = ["Here it is:", image, "done"];
    const out = extractMedia(value, limits);
    assert.equal(out.blocks.length, 1);
    assert.deepEqual(out.blocks[0], image);
    assert.equal(out.tokens, 1334);
    const placeholder = (out.value as unknown[])[1] as Record<string, unknown>;
    assert.equal(placeholder.data, undefined);
    assert.equal(placeholder.tokens, 1334);
    assert.equal(placeholder.width, 1000);
    assert.match(String(placeholder.sent), /image content block 1/);
    assert.equal(value[1], image, "the input is not changed");
  });

  it("keeps media within the token budget and the byte cap, and says what it left out", () => {
    const out = extractMedia({ pictures: [image, image, image] }, limits);
    assert.equal(out.blocks.length, 2);
    assert.equal(out.dropped, 1);
    assert.match(out.note ?? "", /1 image\/audio block was left out/);
    const small = extractMedia([image], { maxTokens: 3000, maxBytes: 10 });
    assert.equal(small.blocks.length, 0);
    assert.equal(small.dropped, 1);
  });

  it("returns values without media as they are", () => {
    const value = { rows: [1, 2, 3], type: "image", data: 5 };
    assert.equal(extractMedia(value, limits).value, value);
    assert.equal(isMediaBlock({ type: "image", data: "AAAA", mimeType: "text/plain" }), false);
    const notBase64 = { type: "image", data: "not base64!", mimeType: "image/png" };
    assert.equal(extractMedia(notBase64, limits).value, notBase64);
  });

  it("walks only so far into a huge value", () => {
    const rows = Array.from({ length: 1_000_000 }, (_, id) => ({ id }));
    rows.push(image as never);
    const out = extractMedia(rows, limits);
    assert.equal(out.value, rows, "the image past the walk's bound stays where it is");
  });
});
