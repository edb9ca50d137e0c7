import { readFile } from "node:fs/promises";
import { z } from "zod";
import { formatPath } from "../config/issues.ts";
import { messageOf } from "../errors/message-of.ts";
import { EvaluationError } from "./errors.ts";

/** What a correct answer holds: every `contains` text and a match of `matches` (both case-insensitive). */
export interface EvalExpectation {
  contains?: string[];
  /** A JavaScript regular expression (source only, no slashes). */
  matches?: string;
}

/** One line of a tasks file. */
export interface EvalTask {
  id: string;
  task: string;
  expect: EvalExpectation;
  /** Model turns for this task; the run's limit when absent. */
  maxTurns?: number;
  /** Line in the file, from 1, for reports and errors. */
  line: number;
}

export interface EvalTaskIssue {
  line: number;
  /** The field at fault (`expect.matches`), absent when the line itself is (not JSON, not an object). */
  field?: string;
  message: string;
}

/** A value of the wrong type: "required" when missing, else what it should be; other issues keep zod's words. */
const expected = (what: string) => ({
  error: (issue: { code?: string; input?: unknown }) =>
    issue.code !== "invalid_type" ? undefined : issue.input === undefined ? "required" : `must be ${what}`,
});

const expectationSchema = z
  .strictObject(
    {
      contains: z
        .array(
          z.string(expected("a string")).min(1, { error: "must not be empty" }),
          expected("a list of texts"),
        )
        .optional(),
      matches: z
        .string(expected("a string (a regular expression)"))
        .min(1, { error: "must not be empty" })
        .superRefine((source, ctx) => {
          try {
            new RegExp(source, "iu");
          } catch (error) {
            ctx.addIssue({ code: "custom", message: `not a valid regular expression: ${messageOf(error)}` });
          }
        })
        .optional(),
    },
    expected("an object"),
  )
  .refine((expect) => (expect.contains?.length ?? 0) > 0 || expect.matches !== undefined, {
    error: 'give "contains" (a list of texts) or "matches" (a regular expression), or both',
  });

const taskSchema = z.strictObject(
  {
    id: z.string(expected("a string")).min(1, { error: "must not be empty" }),
    task: z.string(expected("a string")).min(1, { error: "must not be empty" }),
    expect: expectationSchema,
    maxTurns: z.int(expected("a whole number")).min(1, { error: "must be at least 1" }).optional(),
  },
  expected("a JSON object"),
);

/**
 * Parses a tasks file: one JSON object per line (`{ "id", "task", "expect":
 * { "contains"?, "matches"? }, "maxTurns"? }`); blank lines are skipped. Every
 * problem of every line is reported at once in one EvaluationError, each naming its
 * line and field: `tasks.jsonl:3: expect.matches: not a valid regular expression: …`.
 */
export function parseEvalTasks(text: string, source = "tasks"): EvalTask[] {
  const tasks: EvalTask[] = [];
  const issues: EvalTaskIssue[] = [];
  const seen = new Map<string, number>();
  text.split("\n").forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      issues.push({ line, message: `not valid JSON: ${messageOf(error)}` });
      return;
    }
    const parsed = taskSchema.safeParse(json);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = formatPath(issue.path.filter((key) => typeof key !== "symbol"));
        issues.push({ line, ...(field !== "" && { field }), message: issue.message });
      }
      return;
    }
    const first = seen.get(parsed.data.id);
    if (first !== undefined) {
      issues.push({ line, field: "id", message: `"${parsed.data.id}" is already the id of line ${first}` });
      return;
    }
    seen.set(parsed.data.id, line);
    tasks.push({ ...parsed.data, line });
  });
  if (issues.length > 0) {
    const lines = issues.map(
      (issue) =>
        `${source}:${issue.line}: ${issue.field === undefined ? "" : `${issue.field}: `}${issue.message}`,
    );
    throw new EvaluationError("eval.tasks_invalid", `invalid tasks file:\n${lines.join("\n")}`, {
      source,
      issues,
    });
  }
  if (tasks.length === 0) {
    throw new EvaluationError("eval.tasks_invalid", `${source} holds no tasks (one JSON object per line)`, {
      source,
      issues: [],
    });
  }
  return tasks;
}

/** Reads and parses a tasks file (see parseEvalTasks). */
export async function readEvalTasks(file: string): Promise<EvalTask[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new EvaluationError(
      "eval.tasks_unreadable",
      `cannot read ${file}: ${messageOf(error)}`,
      { file },
      {
        cause: error,
      },
    );
  }
  return parseEvalTasks(text, file);
}
