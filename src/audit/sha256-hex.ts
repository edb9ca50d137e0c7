import * as crypto from "node:crypto";

/** `crypto.hash` (Node ≥ 20.12) digests in one call, without a Hash object: a few µs less per tool call. */
const oneShot: ((algorithm: string, data: string, encoding: "hex") => string) | undefined =
  typeof crypto.hash === "function" ? crypto.hash : undefined;

/** The SHA-256 of `text` (as UTF-8), in hex. */
export function sha256Hex(text: string): string {
  return oneShot ? oneShot("sha256", text, "hex") : crypto.createHash("sha256").update(text).digest("hex");
}
