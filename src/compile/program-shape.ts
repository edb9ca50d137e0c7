import { parse } from "acorn";

/** Where things are in esbuild's output for the wrapped program (0-based lines, UTF-16 columns). */
export interface ProgramShape {
  /** Line holding `async function <name>() {`. */
  headerLine: number;
  /** Line holding the function's closing `}`. */
  closingLine: number;
  /** Start of the body's last statement when it is an expression statement. */
  lastExpression?: { line: number; column: number };
}

/**
 * Parses the compiled program and locates the wrapper function named `name`
 * and, REPL-style, a trailing expression statement whose value becomes the
 * result. Throws when the output does not have the expected shape.
 */
export function findProgramShape(js: string, name: string): ProgramShape {
  const program = parse(js, { ecmaVersion: "latest", sourceType: "script", locations: true });
  const main = program.body.find(
    (statement) => statement.type === "FunctionDeclaration" && statement.id.name === name,
  );
  if (main?.type !== "FunctionDeclaration" || !main.loc) throw new Error(`compiled output lacks ${name}`);
  const shape: ProgramShape = {
    headerLine: main.loc.start.line - 1,
    closingLine: main.loc.end.line - 1,
  };
  const last = main.body.body.at(-1);
  if (last?.type === "ExpressionStatement" && last.directive === undefined && last.loc) {
    shape.lastExpression = { line: last.loc.start.line - 1, column: last.loc.start.column };
  }
  return shape;
}
