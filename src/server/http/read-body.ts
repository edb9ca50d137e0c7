import type { IncomingMessage } from "node:http";

export type BodyResult = { ok: true; value: unknown } | { ok: false; status: 400 | 413; message: string };

/** Reads a JSON request body, refusing more than `maxBytes`. */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return { ok: false, status: 413, message: `request body exceeds ${maxBytes} bytes` };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch (error) {
    return { ok: false, status: 400, message: `malformed JSON: ${(error as Error).message}` };
  }
}
