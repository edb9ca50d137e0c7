/**
 * JSON parsing with a line and column for syntax errors. `JSON.parse` does the parsing;
 * on failure a small scanner finds where the text stops being JSON, because V8's
 * messages do not always carry a position (Node 20: "Unexpected token '}', ... is not valid JSON").
 */

export type JsonParseResult =
  | { ok: true; value: unknown }
  | { ok: false; message: string; offset: number; line: number; column: number; cause: unknown };

export function parseJson(text: string): JsonParseResult {
  // Editors on Windows may save a BOM; JSON.parse rejects it.
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch (cause) {
    const found = locateSyntaxError(source) ?? fallbackLocation(source, cause);
    const offsetInText = found.offset + (source === text ? 0 : 1);
    return {
      ok: false,
      message: found.message,
      offset: offsetInText,
      ...lineColumn(text, offsetInText),
      cause,
    };
  }
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

interface Located {
  offset: number;
  message: string;
}

class SyntaxAt extends Error {
  readonly offset: number;
  constructor(offset: number, message: string) {
    super(message);
    this.offset = offset;
  }
}

function fallbackLocation(source: string, cause: unknown): Located {
  const message = cause instanceof Error ? cause.message : String(cause);
  const position = /at position (\d+)/.exec(message);
  return { offset: position ? Number(position[1]) : source.length, message };
}

/** Returns the first syntax error of `text`, or undefined when it is valid JSON. */
function locateSyntaxError(text: string): Located | undefined {
  try {
    const scanner = new Scanner(text);
    scanner.document();
    return undefined;
  } catch (error) {
    if (error instanceof SyntaxAt) return { offset: error.offset, message: error.message };
    return undefined; // e.g. RangeError on absurd nesting: let JSON.parse's message stand
  }
}

const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Scanner {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  document(): void {
    this.#space();
    this.#value();
    this.#space();
    if (this.#at < this.#text.length) this.#fail("unexpected content after the JSON value");
  }

  #fail(message: string): never {
    throw new SyntaxAt(this.#at, message);
  }

  #unexpected(expected: string): never {
    const char = this.#text[this.#at];
    if (char === undefined) this.#fail(`unexpected end of input, expected ${expected}`);
    if (char === "/") this.#fail("comments are not allowed in JSON");
    if (char === "'") this.#fail("strings must use double quotes");
    this.#fail(`unexpected character ${JSON.stringify(char)}, expected ${expected}`);
  }

  #space(): void {
    while (/[ \t\n\r]/.test(this.#text[this.#at] ?? "")) this.#at++;
  }

  #value(): void {
    const char = this.#text[this.#at];
    if (char === "{") this.#object();
    else if (char === "[") this.#array();
    else if (char === '"') this.#string();
    else if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) this.#number();
    else this.#literal();
  }

  #literal(): void {
    for (const literal of ["true", "false", "null"]) {
      if (this.#text.startsWith(literal, this.#at)) {
        this.#at += literal.length;
        return;
      }
    }
    this.#unexpected("a value");
  }

  #object(): void {
    this.#at++;
    this.#space();
    if (this.#text[this.#at] === "}") {
      this.#at++;
      return;
    }
    for (;;) {
      if (this.#text[this.#at] !== '"') this.#unexpected("a double-quoted property name");
      this.#string();
      this.#space();
      if (this.#text[this.#at] !== ":") this.#unexpected("':' after the property name");
      this.#at++;
      this.#space();
      this.#value();
      this.#space();
      const next = this.#text[this.#at];
      if (next === "}") {
        this.#at++;
        return;
      }
      if (next !== ",") this.#unexpected("',' or '}' after the property value");
      const comma = this.#at;
      this.#at++;
      this.#space();
      if (this.#text[this.#at] === "}") throw new SyntaxAt(comma, "trailing comma is not allowed in JSON");
    }
  }

  #array(): void {
    this.#at++;
    this.#space();
    if (this.#text[this.#at] === "]") {
      this.#at++;
      return;
    }
    for (;;) {
      this.#value();
      this.#space();
      const next = this.#text[this.#at];
      if (next === "]") {
        this.#at++;
        return;
      }
      if (next !== ",") this.#unexpected("',' or ']' after the array element");
      const comma = this.#at;
      this.#at++;
      this.#space();
      if (this.#text[this.#at] === "]") throw new SyntaxAt(comma, "trailing comma is not allowed in JSON");
    }
  }

  #string(): void {
    const start = this.#at;
    this.#at++;
    for (;;) {
      const char = this.#text[this.#at];
      if (char === undefined) throw new SyntaxAt(start, "unterminated string");
      if (char === '"') {
        this.#at++;
        return;
      }
      if (char < " ") this.#fail("control character in string (escape it, e.g. \\n)");
      if (char === "\\") {
        const escaped = this.#text[this.#at + 1];
        if (escaped === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(this.#text.slice(this.#at + 2, this.#at + 6))) {
            this.#fail("invalid \\u escape in string");
          }
          this.#at += 6;
          continue;
        }
        if (escaped === undefined || !ESCAPES.has(escaped)) this.#fail("invalid escape in string");
        this.#at += 2;
        continue;
      }
      this.#at++;
    }
  }

  #number(): void {
    NUMBER.lastIndex = this.#at;
    const match = NUMBER.exec(this.#text);
    if (!match) this.#fail("invalid number");
    this.#at += match[0].length;
  }
}
