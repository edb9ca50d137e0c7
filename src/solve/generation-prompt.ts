import type { ModelMessage } from "../llm/types.ts";

export interface GenerationInput {
  task: string;
  /** The TypeScript type of the arguments the tool receives (arguments-type.ts). */
  argumentsType: string;
  expectedOutcome?: string | undefined;
  /** Declarations of the tools search found for the task, `tools.<server>.<tool>` paths included. */
  toolDeclarations: string[];
}

/** Teaches the model the one shape of module ToolScript can check, run and reuse. */
export const GENERATION_SYSTEM = [
  "You write one TypeScript module that performs a task inside ToolScript's sandbox.",
  "Rules:",
  "- The module's default export is `async (args: Args) => result`: it receives the task's arguments and returns the result as plain JSON data.",
  "- Declare the `Args` type in the module exactly as given.",
  "- The sandbox has no network, no filesystem, no process and no Node or browser APIs. It has the standard JavaScript library and a global `tools` object: `await tools.<server>.<tool>(input)` calls a tool whose declaration you are given, and returns its result.",
  "- Call only the tools whose declarations you are given, with the argument names and types they declare. When the task needs no tool, compute the result yourself.",
  "- A tool that fails throws; let it throw unless the task says what to do then.",
  "- Work for any arguments of the given type, not only the example values. No top-level await, no imports.",
  "- Answer with the module alone in one ```ts fenced block.",
].join("\n");

export function generationMessages(input: GenerationInput): ModelMessage[] {
  const parts = [`Task: ${input.task}`, "", `type Args = ${input.argumentsType};`];
  if (input.expectedOutcome) parts.push("", `Expected outcome: ${input.expectedOutcome}`);
  parts.push(
    "",
    input.toolDeclarations.length > 0
      ? `Tools you may call:\n\n${input.toolDeclarations.join("\n\n")}`
      : "No tool matched this task: compute the result in the module itself.",
  );
  return [{ role: "user", content: [{ type: "text", text: parts.join("\n") }] }];
}

/** The repair round: the model's module, and why it failed, as the next turns of the same conversation. */
export function repairMessages(first: ModelMessage[], answer: string, failure: string): ModelMessage[] {
  return [
    ...first,
    { role: "assistant", content: [{ type: "text", text: answer }] },
    {
      role: "user",
      content: [
        {
          type: "text",
          text: `That module failed:\n\n${failure}\n\nFix it. Answer with the whole corrected module in one \`\`\`ts fenced block.`,
        },
      ],
    },
  ];
}
