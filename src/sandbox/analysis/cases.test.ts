import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  AnalysisError,
  aggregate,
  filter,
  METRIC_OPS,
  OPERATORS,
  RULES,
  transform,
  validate,
} from "./index.ts";

const FUNCTIONS = { filter, aggregate, transform, validate } as Record<
  string,
  (...args: unknown[]) => unknown
>;

/**
 * The one table both languages answer to (cases.json): every case runs here
 * against the TypeScript module and, through the machine's python3, against
 * toolscript/analysis.py; each must give the expected value (numbers within
 * 1e-9, keys in order) or the exact AnalysisError message, and both must give
 * the very same numbers.
 */

interface Case {
  name: string;
  fn: "filter" | "aggregate" | "transform" | "validate";
  args: unknown[];
  expect?: unknown;
  error?: string;
  summary?: "length";
}

type Outcome = { ok: unknown } | { error: string; name: string; valueError?: boolean };

const TABLE = JSON.parse(readFileSync(new URL("./cases.json", import.meta.url), "utf8")) as { cases: Case[] };
const PYTHON_LIB = fileURLToPath(new URL("../python/lib/", import.meta.url));
const HARNESS = fileURLToPath(new URL("./run-cases.py", import.meta.url));
const REGIONS = ["north", "south", "east", "west", "centre"];

/** `{"$rows": "sales", "count": N}`: N rows, the same on both sides. */
function expand(arg: unknown): unknown {
  const spec = arg as { $rows?: string; count?: number } | null;
  if (spec === null || typeof spec !== "object" || spec.$rows !== "sales") return arg;
  return Array.from({ length: spec.count ?? 0 }, (_, i) => ({
    id: i,
    region: REGIONS[i % 5],
    price: ((i * 37) % 1000) / 10,
    qty: i % 13,
    customer: { tier: i % 3 === 0 ? "gold" : "basic" },
  }));
}

const CASES = TABLE.cases.map((entry) => ({ ...entry, args: entry.args.map(expand) }));

function runTypeScript(entry: Case): Outcome {
  const fn = FUNCTIONS[entry.fn]!;
  try {
    // Through JSON, as the result leaves the sandbox: what Python prints is compared the same way.
    return { ok: JSON.parse(JSON.stringify(fn(...entry.args)) ?? "null") };
  } catch (error) {
    const err = error as Error;
    return { error: err.message, name: err.name, valueError: error instanceof AnalysisError };
  }
}

function runPython(): Outcome[] {
  const input = JSON.stringify(CASES.map(({ fn, args }) => ({ fn, args })));
  const child = spawnSync("python3", [HARNESS], {
    input,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, PYTHONPATH: PYTHON_LIB, PYTHONIOENCODING: "utf-8", PYTHONDONTWRITEBYTECODE: "1" },
  });
  if (child.error) throw child.error;
  assert.equal(child.status, 0, `python3 failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as Outcome[];
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Deep equality with numbers within `near`, and object keys in the same order. */
function same(actual: unknown, expected: unknown, near: (a: number, b: number) => boolean, at = "$"): void {
  if (typeof expected === "number") {
    assert.ok(typeof actual === "number" && near(actual, expected), `${at}: ${actual} is not ${expected}`);
  } else if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${at}: expected an array, got ${JSON.stringify(actual)}`);
    assert.equal(actual.length, expected.length, `${at}: length`);
    expected.forEach((item, index) => {
      same(actual[index], item, near, `${at}[${index}]`);
    });
  } else if (expected !== null && typeof expected === "object") {
    assert.ok(
      actual !== null && typeof actual === "object" && !Array.isArray(actual),
      `${at}: expected an object`,
    );
    const record = actual as Record<string, unknown>;
    assert.deepEqual(Object.keys(record), Object.keys(expected), `${at}: keys`);
    for (const [key, value] of Object.entries(expected)) same(record[key], value, near, `${at}.${key}`);
  } else {
    assert.equal(actual, expected, at);
  }
}

function check(outcome: Outcome | undefined, entry: Case, language: string): void {
  assert.ok(outcome, `${language}: no outcome`);
  if (entry.error !== undefined) {
    assert.ok(
      "error" in outcome,
      `${language}: expected the error ${entry.error}, got ${JSON.stringify(outcome)}`,
    );
    assert.equal(outcome.error, entry.error, `${language}: message`);
    assert.equal(outcome.name, "AnalysisError", `${language}: class`);
    assert.equal(outcome.valueError, true, `${language}: AnalysisError (a ValueError in Python)`);
    return;
  }
  assert.ok("ok" in outcome, `${language}: threw ${JSON.stringify(outcome)}`);
  const value = entry.summary === "length" ? (outcome.ok as unknown[]).length : outcome.ok;
  same(value, entry.expect, close, language);
}

describe("analysis helpers: the shared table (cases.json), TypeScript and Python", () => {
  let python: Outcome[] = [];
  before(() => {
    python = runPython();
    assert.equal(python.length, CASES.length, "python3 answered every case");
  });

  CASES.forEach((entry, index) => {
    it(entry.name, () => {
      const typescript = runTypeScript(entry);
      check(typescript, entry, "TypeScript");
      check(python[index], entry, "Python");
      // Not just both near the expectation: the same floats, so a program gives one answer in either language.
      if ("ok" in typescript) same((python[index] as { ok: unknown }).ok, typescript.ok, (a, b) => a === b);
    });
  });

  it("has cases for every function and every operator, metric and rule", () => {
    const text = JSON.stringify(TABLE.cases);
    for (const fn of ["filter", "aggregate", "transform", "validate"])
      assert.ok(
        TABLE.cases.some((entry) => entry.fn === fn && entry.error === undefined),
        fn,
      );
    for (const op of OPERATORS) assert.ok(text.includes(`"op":"${op}"`), op);
    for (const op of METRIC_OPS) assert.ok(text.includes(`"op":"${op}"`), op);
    for (const rule of RULES) assert.ok(text.includes(`"rule":"${rule}"`), rule);
  });
});
