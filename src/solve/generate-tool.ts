import { messageOf } from "../errors/message-of.ts";
import type { ExecuteResponse } from "../gateway/types.ts";
import type { ModelClient, ModelMessage, ModelResponse, ModelUsage } from "../llm/types.ts";
import type { CheckedSkill } from "../skills/skill-library.ts";
import { SolveError } from "./errors.ts";
import { extractModule } from "./extract-module.ts";
import {
  GENERATION_SYSTEM,
  type GenerationInput,
  generationMessages,
  repairMessages,
} from "./generation-prompt.ts";

/** Tries: the first answer and one repair round with its error. */
const ATTEMPTS = 2;
/** Characters of a failure quoted back to the model and in the final error. */
const MAX_FAILURE_CHARS = 2_000;

export interface GenerateToolOptions {
  model: ModelClient;
  name: string;
  input: GenerationInput;
  /** Syntax and type check against the tools' declarations (throws with the compiler's words). */
  check(code: string): Promise<CheckedSkill>;
  /** Resolves when a person approved the first run; throws otherwise. Absent: no approval needed. */
  approve?: ((code: string) => Promise<void>) | undefined;
  /** Runs the unsaved module with the task's arguments. */
  run(code: string, declaration: string): Promise<ExecuteResponse>;
  signal?: AbortSignal | undefined;
}

export interface GeneratedTool {
  code: string;
  declaration: string;
  execution: ExecuteResponse;
  model: string;
  repaired: boolean;
  usage: ModelUsage;
}

/**
 * Has the model write the module, then checks it as any skill is checked and
 * runs it with the task's arguments; on a failure the model gets one repair
 * round with the error. Still failing: `solve.generation_failed` with the last
 * code and why.
 */
export async function generateTool(options: GenerateToolOptions): Promise<GeneratedTool> {
  const first = generationMessages(options.input);
  const usage: ModelUsage = { inputTokens: 0, outputTokens: 0 };
  let messages: ModelMessage[] = first;
  let last: { code: string | undefined; why: string } | undefined;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const response = await options.model.complete(
      { system: GENERATION_SYSTEM, messages, temperature: 0 },
      { signal: options.signal },
    );
    usage.inputTokens += response.usage.inputTokens;
    usage.outputTokens += response.usage.outputTokens;
    const answer = answerText(response.content);
    const outcome = await tryModule(options, answer);
    if (outcome.ok) {
      return { ...outcome.tool, model: response.model, repaired: attempt > 1, usage };
    }
    last = { code: outcome.code, why: outcome.why };
    messages = repairMessages(first, answer, outcome.why);
  }
  throw new SolveError(
    "solve.generation_failed",
    `the model's tool for this task failed ${ATTEMPTS} times; last: ${last?.why ?? "no answer"}${last?.code ? `\n\nIts code:\n${last.code}` : ""}`,
    { skill: options.name, code: last?.code, why: last?.why, attempts: ATTEMPTS },
  );
}

type Outcome =
  | { ok: true; tool: { code: string; declaration: string; execution: ExecuteResponse } }
  | { ok: false; code: string | undefined; why: string };

async function tryModule(options: GenerateToolOptions, answer: string): Promise<Outcome> {
  const code = extractModule(answer);
  if (code === undefined)
    return { ok: false, code, why: "the answer has no TypeScript module with a default export" };
  let checked: CheckedSkill;
  try {
    checked = await options.check(code);
  } catch (error) {
    return { ok: false, code, why: clip(`it does not compile: ${messageOf(error)}`) };
  }
  if (!checked.exports.includes("default"))
    return { ok: false, code, why: "the module has no default export" };
  await options.approve?.(code);
  const execution = await options.run(code, checked.declaration);
  if (execution.error) {
    const { kind, name, message, line } = execution.error;
    const where = line === undefined ? "" : ` (line ${line})`;
    return {
      ok: false,
      code,
      why: clip(`running it with the task's arguments failed: ${kind} ${name}${where}: ${message}`),
    };
  }
  return { ok: true, tool: { code, declaration: checked.declaration, execution } };
}

function clip(text: string): string {
  return text.length <= MAX_FAILURE_CHARS ? text : `${text.slice(0, MAX_FAILURE_CHARS - 1)}…`;
}

/**
 * The answer as text. A model that answers through a tool use instead (some put
 * code in a tool's arguments even when offered none) has its string arguments
 * read too, in a fenced block each, so the module is found either way.
 */
function answerText(content: ModelResponse["content"]): string {
  return content
    .flatMap((block) =>
      block.type === "text"
        ? [block.text]
        : Object.values(block.input)
            .filter((value): value is string => typeof value === "string")
            .map((value) => (value.includes("```") ? value : `\n\`\`\`ts\n${value}\n\`\`\`\n`)),
    )
    .join("");
}
