/** The meta-tools of code mode, by the names the gateway lists them under. */
export const AGENT_META_TOOLS = [
  "search_tools",
  "list_tools",
  "describe_tools",
  "execute_code",
  "solve_task",
] as const;

/** Offered when the gateway lists it: it plans and runs a task described in words by itself. */
export const SOLVE_TASK = "solve_task";

const CODE_MODE = [
  "You complete the user's task with the tools of MCP servers, reached through a code-mode gateway.",
  "",
  "How to work:",
  "1. Find the tools first: search_tools with a few plain words (or list_tools to browse servers). Never guess tool names.",
  "2. Read the declarations of the tools you will use with describe_tools: they give exact names, parameters and result types.",
  "3. Write ONE execute_code program (TypeScript, top-level await) that calls every tool the task needs, as `await tools.<server>.<tool>({...})`, filters, joins and aggregates the results in code (Promise.all for independent calls) and returns only what the answer needs. Tool results stay in the sandbox; only what the program returns or logs comes back to you.",
  "4. If the program fails, read the error (it names the kind and the line), fix it and run it again. A failed tool call throws; catch it where a failure is expected.",
  "",
  "Prefer one program over many small calls. Do not print or return whole tool results: return counts, totals, the few rows asked for.",
].join("\n");

const SOLVE_TASK_HINT =
  "When the whole task can be said in words and needs no judgement of yours between steps, prefer solve_task (task_description, and arguments when you have them): it finds the tools and writes the program itself.";

/** How to answer, in every mode (the eval's direct mode too). */
export const ANSWER_STYLE =
  "When you have what the task asks for, answer in plain text, short and direct: the facts and numbers asked for, no account of the steps you took.";

/**
 * The agent's system prompt: how to work in code mode (search, declarations,
 * one program that returns only what is needed), with solve_task when `tools` offers it.
 */
export function codeModeSystemPrompt(tools: readonly string[]): string {
  return [CODE_MODE, ...(tools.includes(SOLVE_TASK) ? [SOLVE_TASK_HINT] : []), ANSWER_STYLE].join("\n\n");
}
