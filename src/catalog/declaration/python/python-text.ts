/** Characters Python source cannot hold as they are (NUL), or that editors take for line breaks. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const UNSAFE_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0085\u2028\u2029]/g;

/** Text as lines: line endings normalised, control characters as spaces, trailing spaces trimmed. */
export function textLines(text: string): string[] {
  const lines = text
    .replace(/\r\n?/g, "\n")
    .replace(UNSAFE_CHARS, " ")
    .trim()
    .split("\n")
    .map((line) => line.trimEnd());
  if (lines.length === 1 && lines[0] === "") return [];
  // At most one blank line in a row.
  return lines.filter((line, i) => line !== "" || lines[i - 1] !== "");
}

/** `# ...` comment lines at `indent`; a blank line becomes a bare `#`. */
export function commentLines(lines: readonly string[], indent = ""): string[] {
  return lines.map((line) => (line === "" ? `${indent}#` : `${indent}# ${line}`));
}

/**
 * A triple-quoted docstring at `indent`, or nothing when there is no text. Backslashes and
 * quote runs are escaped so the text can never close the string early.
 */
export function docstring(lines: readonly string[], indent: string): string[] {
  if (lines.length === 0) return [];
  // Only quotes that start a run of three, and one at the end of a line (it would join the closing quotes).
  const escaped = lines.map((line) =>
    line
      .replaceAll("\\", "\\\\")
      .replace(/"(?="")/g, '\\"')
      .replace(/"$/, '\\"'),
  );
  if (escaped.length === 1) return [`${indent}"""${escaped[0]}"""`];
  return [
    `${indent}"""${escaped[0]}`,
    ...escaped.slice(1).map((line) => (line === "" ? "" : `${indent}${line}`)),
    `${indent}"""`,
  ];
}

/** A Python string literal: JSON's escapes (`\"`, `\\`, `\n`, `\uXXXX`) mean the same in Python. */
export function pythonString(text: string): string {
  return JSON.stringify(text);
}
