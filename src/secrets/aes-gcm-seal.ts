import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * AES-256-GCM sealing of text into a JSON envelope, shared by everything
 * ToolScript encrypts at rest (PII vaults, OAuth credentials). Each user names
 * its `format`; `context` (a session id, a server name) is bound as additional
 * data `<format>:v1:<context>`, so a blob copied to another context, or read as
 * another format, does not open.
 */

export const SEAL_KEY_BYTES = 32;
const IV_BYTES = 12;
const ALGORITHM = "aes-256-gcm";

/** A sealed value as stored: JSON text, safe to write to disk or a database. */
export interface SealedEnvelope {
  format: string;
  version: 1;
  alg: "AES-256-GCM";
  iv: string;
  tag: string;
  data: string;
}

/**
 * Why a sealed value did not open: `not_json` and `unknown_format` (not a
 * sealed value of this format at all), `locked` (another key or context, or
 * the data was altered: GCM cannot tell these apart, by design).
 */
export type OpenFailure = { ok: false; reason: "not_json" | "unknown_format" | "locked"; cause?: unknown };
export type OpenOutcome = { ok: true; plain: string } | OpenFailure;

/** Encrypts `plain` under `key` (32 bytes) with a fresh random IV. */
export function sealText(plain: string, key: Buffer, format: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(additionalData(format, context));
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const sealed: SealedEnvelope = {
    format,
    version: 1,
    alg: "AES-256-GCM",
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    data: data.toString("base64"),
  };
  return JSON.stringify(sealed);
}

/** Decrypts what `sealText` made with the same key, format and context; failures are data, never thrown. */
export function openSealedText(sealed: string, key: Buffer, format: string, context: string): OpenOutcome {
  let parsed: unknown;
  try {
    parsed = JSON.parse(sealed);
  } catch (cause) {
    return { ok: false, reason: "not_json", cause };
  }
  const envelope = parsed as Partial<SealedEnvelope> | null;
  if (
    envelope?.format !== format ||
    envelope.version !== 1 ||
    typeof envelope.iv !== "string" ||
    typeof envelope.tag !== "string" ||
    typeof envelope.data !== "string"
  ) {
    return { ok: false, reason: "unknown_format" };
  }
  try {
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(envelope.iv, "base64"));
    decipher.setAAD(additionalData(format, context));
    decipher.setAuthTag(Buffer.from(envelope.tag, "base64"));
    const plain = Buffer.concat([decipher.update(Buffer.from(envelope.data, "base64")), decipher.final()]);
    return { ok: true, plain: plain.toString("utf8") };
  } catch (cause) {
    return { ok: false, reason: "locked", cause };
  }
}

function additionalData(format: string, context: string): Buffer {
  return Buffer.from(`${format}:v1:${context}`, "utf8");
}
