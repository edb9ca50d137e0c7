import type ts from "typescript";

/** The one standard library the sandbox has: ES2023, no DOM, no Node. */
export const SANDBOX_LIB = "lib.es2023.d.ts";

/** `import ... from "skills/<name>"` resolves to this virtual declaration file. */
export const SKILLS_DIR = "/skills/";

let typescript: Promise<typeof ts> | undefined;

/** The compiler loads on first use: a gateway that never type-checks never pays for it (~1 s, ~30 MB). */
export function loadTypeScript(): Promise<typeof ts> {
  typescript ??= import("typescript").then((module) => module.default);
  return typescript;
}

/** Where a 0-based offset of `file` is, 1-based. */
export function positionIn(
  file: ts.SourceFile | undefined,
  start: number | undefined,
): { line?: number; column?: number } {
  if (!file || start === undefined) return {};
  const { line, character } = file.getLineAndCharacterOfPosition(start);
  return { line: line + 1, column: character + 1 };
}
