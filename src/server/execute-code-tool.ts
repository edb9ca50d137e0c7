import { z } from "zod";
import type { Catalog } from "../catalog/catalog.ts";
import type { UpstreamStatus } from "../upstream/types.ts";
import { summarizeServers } from "./servers-summary.ts";

export const EXECUTE_CODE = "execute_code";

export const executeCodeInput = {
  code: z
    .string()
    .min(1)
    .describe("The program: TypeScript (default) or JavaScript, top-level await allowed."),
  language: z.enum(["typescript", "javascript", "python"]).optional().describe("Default: typescript."),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Wall-clock limit in ms (capped by the gateway)."),
  session: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("Session id, for state that persists across calls."),
  context: z.unknown().optional().describe("JSON value the program sees as the global `context`."),
  maxTokens: z.number().int().positive().optional().describe("Token budget of the answer (default 2000)."),
  strategy: z
    .enum(["auto", "truncate", "sample", "summarize"])
    .optional()
    .describe("How to reduce an answer over budget (default auto)."),
};

export const executeCodeOutput = {
  result: z.unknown().optional(),
  resultReduced: z.object({}).passthrough().optional(),
  logs: z.array(z.object({ level: z.string(), message: z.string() })),
  logsReduced: z.object({}).passthrough().optional(),
  tokens: z.object({}).passthrough().optional(),
  toolCalls: z.number(),
  durationMs: z.number(),
  error: z
    .object({
      kind: z.string(),
      name: z.string(),
      message: z.string(),
      line: z.number().optional(),
      column: z.number().optional(),
    })
    .optional(),
};

/** The tool description: how to write code for it, and the servers in one line each. */
export function executeCodeDescription(catalog: Catalog, statuses: readonly UpstreamStatus[]): string {
  return [
    "Run one TypeScript program that calls the connected MCP servers' tools in a sandbox; only what it logs and returns comes back.",
    "- Every tool is an async function: `const r = await tools.<server>.<tool>({ ...args })`. It returns the tool's structured output, else its text parsed as JSON when it is a JSON object/array, else the text.",
    "- A failing tool throws `ToolError` (catch it); arguments that break the tool's schema throw `ValidationError` before the call.",
    "- Top-level await works. `return` a value (or end with an expression) to send it back; console.log output comes back too.",
    "- Do the work in code: loop, filter, join and aggregate there, run independent calls with Promise.all, and return only what is needed.",
    '- Find tools from code too: `await searchTools("what you need", 5)` returns [{ server, tool, path, description, score }].',
    "- No network, files, process or timers: only `tools`, `searchTools`, `console` and `context`.",
    "Use search_tools to find the tools for a task and describe_tools to read their declarations before writing code.",
    "Servers:",
    ...summarizeServers(catalog, statuses),
  ].join("\n");
}
