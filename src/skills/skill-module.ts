import { transform } from "esbuild";
import { SKILL_FILE_PREFIX } from "../sandbox/isolate/prelude.ts";
import { SkillCheckError } from "./errors.ts";

/** A skill compiled for the sandbox (see the prelude's `startSkill`). */
export interface CompiledSkill {
  /** A CommonJS-style body run with `exports`, `require` and `module`. */
  js: string;
  /** Skills it imports, in order of first import. */
  imports: string[];
}

// The sandbox runs on this very V8, so only syntax it lacks gets lowered.
const TARGET = `node${process.versions.node}`;
// esbuild prints every import of a CommonJS output as exactly this call.
const REQUIRE_SKILL = /\brequire\("skills\/([A-Za-z][A-Za-z0-9_-]*)"\)/g;

interface BuildMessage {
  text: string;
  location: { line: number; column: number; lineText: string } | null;
}

function firstMessage(error: unknown): BuildMessage | undefined {
  const errors = (error as { errors?: unknown }).errors;
  return Array.isArray(errors) ? (errors[0] as BuildMessage | undefined) : undefined;
}

/**
 * Compiles a skill's TypeScript into the module body the sandbox evaluates.
 * Types are stripped here (they were checked when the skill was saved);
 * top-level `await` is refused, since a module body runs synchronously.
 */
export async function compileSkillModule(name: string, code: string): Promise<CompiledSkill> {
  let output: { code: string };
  try {
    output = await transform(code, {
      loader: "ts",
      format: "cjs",
      target: TARGET,
      sourcefile: `${SKILL_FILE_PREFIX}${name}.ts`,
      logLevel: "silent",
      charset: "utf8",
    });
  } catch (error) {
    const message = firstMessage(error);
    const location = message?.location;
    const text = message?.text ?? (error instanceof Error ? error.message : String(error));
    const hint = /top-level await/i.test(text) ? " (put the awaits inside an exported function)" : "";
    throw new SkillCheckError(
      "skill.syntax",
      `skill "${name}": ${text}${hint}${location ? ` (line ${location.line}, column ${location.column + 1})` : ""}`,
      {
        name,
        ...(location && { line: location.line, column: location.column + 1 }),
      },
      { cause: error },
    );
  }
  const imports: string[] = [];
  for (const match of output.code.matchAll(REQUIRE_SKILL)) {
    const imported = match[1];
    if (imported !== undefined && !imports.includes(imported)) imports.push(imported);
  }
  return { js: output.code, imports };
}
