/**
 * Decoding and encoding of the `mappings` field of a source map (v3), so the
 * compile step can move esbuild's map onto the code it finally emits.
 * Node's `module.SourceMap` reads maps but cannot write them.
 */

/** One mapping: generated column, then optionally source index, original line, original column, name index. */
export type Segment = [number] | [number, number, number, number] | [number, number, number, number, number];

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BASE64_VALUES = new Map([...BASE64].map((char, index) => [char, index]));
const VLQ_SHIFT = 5;
const VLQ_CONTINUATION = 1 << VLQ_SHIFT;
const VLQ_MASK = VLQ_CONTINUATION - 1;

function decodeValues(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = BASE64_VALUES.get(char);
    if (digit === undefined) throw new Error(`invalid base64 VLQ character ${JSON.stringify(char)}`);
    value += (digit & VLQ_MASK) * 2 ** shift;
    if (digit & VLQ_CONTINUATION) {
      shift += VLQ_SHIFT;
      continue;
    }
    values.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2);
    value = 0;
    shift = 0;
  }
  return values;
}

function encodeValue(value: number): string {
  let rest = value < 0 ? -value * 2 + 1 : value * 2;
  let out = "";
  do {
    let digit = rest & VLQ_MASK;
    rest = Math.floor(rest / VLQ_CONTINUATION);
    if (rest > 0) digit |= VLQ_CONTINUATION;
    out += BASE64[digit];
  } while (rest > 0);
  return out;
}

/** Decodes `mappings` into absolute segments, one array per generated line. */
export function decodeMappings(mappings: string): Segment[][] {
  const lines: Segment[][] = [];
  let source = 0;
  let originalLine = 0;
  let originalColumn = 0;
  let name = 0;
  for (const lineText of mappings.split(";")) {
    const line: Segment[] = [];
    let column = 0;
    for (const segmentText of lineText.split(",")) {
      if (segmentText === "") continue;
      const values = decodeValues(segmentText);
      column += values[0] ?? 0;
      if (values.length < 4) {
        line.push([column]);
        continue;
      }
      source += values[1] ?? 0;
      originalLine += values[2] ?? 0;
      originalColumn += values[3] ?? 0;
      if (values.length < 5) {
        line.push([column, source, originalLine, originalColumn]);
        continue;
      }
      name += values[4] ?? 0;
      line.push([column, source, originalLine, originalColumn, name]);
    }
    lines.push(line);
  }
  return lines;
}

/** Encodes absolute segments back into a `mappings` string. */
export function encodeMappings(lines: readonly (readonly Segment[])[]): string {
  let source = 0;
  let originalLine = 0;
  let originalColumn = 0;
  let name = 0;
  return lines
    .map((line) => {
      let column = 0;
      return line
        .map((segment) => {
          let text = encodeValue(segment[0] - column);
          column = segment[0];
          if (segment.length === 1) return text;
          const [, segmentSource, segmentLine, segmentColumn] = segment;
          text += encodeValue(segmentSource - source) + encodeValue(segmentLine - originalLine);
          text += encodeValue(segmentColumn - originalColumn);
          source = segmentSource;
          originalLine = segmentLine;
          originalColumn = segmentColumn;
          if (segment.length === 5) {
            text += encodeValue(segment[4] - name);
            name = segment[4];
          }
          return text;
        })
        .join(",");
    })
    .join(";");
}
