import type { PythonSkillProblem } from "../../skills/python-skill.ts";
import type { SandboxRuntime } from "../types.ts";

/** What the sandboxed interpreter runs: parse only, never execute, the skill's source. */
const PARSE_PROGRAM = `import ast
try:
    ast.parse(context["source"], filename="skills/" + context["name"] + ".py")
    result = None
except SyntaxError as error:
    result = {"message": f"{type(error).__name__}: {error.msg}", "line": error.lineno}
`;

const CHECK_TIMEOUT_MS = 10_000;
const CHECK_MEMORY_MB = 128;

/**
 * Python's own parser on a skill's source, inside a sandboxed interpreter
 * (Python never runs in the gateway's process): undefined when it parses,
 * else the message and line of the syntax error.
 */
export async function checkPythonSyntax(
  runtime: SandboxRuntime,
  skill: { name: string; code: string },
): Promise<PythonSkillProblem | undefined> {
  const outcome = await runtime.run({
    code: PARSE_PROGRAM,
    context: { name: skill.name, source: skill.code },
    tools: {},
    bridge: {
      callTool: () => Promise.reject({ name: "PolicyError", message: "no tools while checking a skill" }),
    },
    timeoutMs: CHECK_TIMEOUT_MS,
    memoryMb: CHECK_MEMORY_MB,
    maxLogBytes: 4096,
  });
  if (outcome.error) {
    return { message: `the Python syntax check could not run: ${outcome.error.message}` };
  }
  const problem = outcome.result as { message?: unknown; line?: unknown } | null | undefined;
  if (problem === null || problem === undefined || typeof problem.message !== "string") return undefined;
  return { message: problem.message, ...(typeof problem.line === "number" && { line: problem.line }) };
}
