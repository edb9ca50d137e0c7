import { SKILL_SPECIFIER } from "./skill-imports.ts";
import { skipTrivia, splitStaticImports } from "./static-imports.ts";

/**
 * The program as the type checker reads it: the script body wrapped in an
 * async function (top-level `await` and `return` work there, as they do at
 * run time) with `context` as its `any` parameter, the leading imports left
 * above it. The wrapper opens on the line where the body starts, so only
 * that line's columns move; `toSource` maps an offset back.
 */
export interface CheckSource {
  text: string;
  /** Skills the program imports (`skills/<name>`), by name. */
  imports: string[];
  /** Offset in `text` → offset in the agent's source. */
  toSource(offset: number): number;
}

const MAIN = "__toolscript_main";
// `context` is whatever JSON the caller sent: `any`, so programs may read it as they know it is.
const HEAD = `async function ${MAIN}(context: any) {`;
const TAIL = "\n}\n";

export function checkSource(source: string): CheckSource {
  const { imports } = splitStaticImports(source);
  // After the leading comments too: a `#!` line and `// @ts-nocheck` only count at the top.
  const bodyStart = imports.at(-1)?.end ?? skipTrivia(source, 0);
  const names: string[] = [];
  for (const declaration of imports) {
    const name = SKILL_SPECIFIER.exec(declaration.specifier)?.[1];
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return {
    text: source.slice(0, bodyStart) + HEAD + source.slice(bodyStart) + TAIL,
    imports: names,
    toSource: (offset) => {
      if (offset < bodyStart) return offset;
      if (offset < bodyStart + HEAD.length) return bodyStart;
      return Math.min(offset - HEAD.length, source.length);
    },
  };
}
