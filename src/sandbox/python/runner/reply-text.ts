const REPLY_HEAD = '{"type":"reply","id":';
const REPLY_FIELD = ',"reply":';

/**
 * A reply line as the host writes it (protocol.ts encodeHostMessage:
 * `{"type":"reply","id":N,"reply":{...}}`), cut to its id and the reply's JSON
 * text, which goes to Python as it is: no parse and stringify of a result here.
 */
export function replyText(line: string): { id: number; json: string } | undefined {
  if (!line.startsWith(REPLY_HEAD) || !line.endsWith("}")) return undefined;
  const field = line.indexOf(REPLY_FIELD, REPLY_HEAD.length);
  if (field < 0) return undefined;
  const id = Number(line.slice(REPLY_HEAD.length, field));
  if (!Number.isSafeInteger(id)) return undefined;
  return { id, json: line.slice(field + REPLY_FIELD.length, -1) };
}
