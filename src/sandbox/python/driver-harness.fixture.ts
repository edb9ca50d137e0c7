import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ExecutionError, ToolNamespace } from "../types.ts";

/**
 * Runs the Python driver in the machine's CPython (3.11) with a fake host
 * (driver_test_harness.py), for the driver's tests: the same package pyrt
 * loads into Pyodide.
 */

const HARNESS = fileURLToPath(new URL("./driver_test_harness.py", import.meta.url));

type Behaviour = { sum: true } | { echo: true } | { reply: unknown };

export interface RunSpec {
  code: string;
  context?: unknown;
  namespace?: ToolNamespace;
  limits?: { maxLogBytes?: number; maxOutputBytes?: number };
  skills?: Record<string, string>;
}

export interface RunRecord {
  isString: boolean;
  outcome: { result?: unknown; error?: ExecutionError };
  logs: { level: string; message: string }[];
  calls: { server: string; tool: string; args: unknown }[];
}

const NAMESPACE: ToolNamespace = {
  everything: { server: "everything", tools: { get_sum: "get-sum", echo: "echo", fail: "fail" } },
  policy: { server: "policy-server", tools: { refused: "refused", invalid: "invalid", capped: "capped" } },
};

function failing(name: string, message: string, code?: string, data?: unknown): Behaviour {
  const error: Record<string, unknown> = { name, message };
  if (code !== undefined) error.code = code;
  if (data !== undefined) error.dataJson = JSON.stringify(data);
  return { reply: { ok: false, error } };
}

const TOOLS: Record<string, Behaviour> = {
  "everything/get-sum": { sum: true },
  "everything/echo": { echo: true },
  "everything/fail": failing("ToolError", "upstream said no", "tool.failed", { content: [{ type: "text" }] }),
  "policy-server/refused": failing("PolicyError", "refused by policy", "policy.denied"),
  "policy-server/invalid": failing("ValidationError", "a: expected number", "validation.input", [
    { path: "a" },
  ]),
  "policy-server/capped": failing("LimitError", "too many tool calls", "limit.tool_calls"),
};

export function runPython(runs: RunSpec[]): RunRecord[] {
  const spec = { tools: TOOLS, runs: runs.map((run) => ({ namespace: NAMESPACE, ...run })) };
  const child = spawnSync("python3", [HARNESS], {
    input: JSON.stringify(spec),
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", PYTHONDONTWRITEBYTECODE: "1", PYTHONIOENCODING: "utf-8" },
    timeout: 60_000,
  });
  assert.equal(child.status, 0, `python3 failed: ${child.stderr}`);
  const records = child.stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as RunRecord);
  assert.equal(records.length, runs.length);
  for (const record of records) assert.equal(record.isString, true);
  return records;
}

export function runOne(run: RunSpec): RunRecord {
  return runPython([run])[0]!;
}

export function errorOf(run: RunSpec): ExecutionError {
  const { outcome } = runOne(run);
  assert.ok(outcome.error, `expected an error, got ${JSON.stringify(outcome)}`);
  return outcome.error;
}
