import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

/** Items per page of a merged list: large enough that most clients never see a second page. */
export const DEFAULT_PAGE_SIZE = 500;

/**
 * One page of a merged list. The cursor is the offset of the next page: lists are
 * rebuilt per request in a stable order (the gateway's items, then servers in config
 * order), so no state is kept between pages, which suits stateless HTTP too.
 */
export function page<T>(
  items: readonly T[],
  cursor: string | undefined,
  pageSize: number,
): { items: T[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : decodeCursor(cursor);
  const end = start + pageSize;
  return {
    items: items.slice(start, end),
    ...(end < items.length ? { nextCursor: Buffer.from(`o:${end}`).toString("base64url") } : {}),
  };
}

function decodeCursor(cursor: string): number {
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (match === null) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
  return Number(match[1]);
}
