import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { Gateway } from "../src/gateway/gateway.ts";
import * as analysis from "../src/sandbox/analysis/index.ts";
import { openMemorySharedStore } from "../src/store/sqlite-shared-store.ts";

// `import { aggregate } from "toolscript/analysis"` in real programs, type-checked, on both tiers.
const ROWS = [
  { region: "north", price: 10, customer: { tier: "gold" } },
  { region: "south", price: 4 },
  { region: "north", price: 20, customer: { tier: "basic" } },
  { region: "south", price: "n/a" },
  { region: "north", price: 30, customer: { tier: "gold" } },
];

// The shared table's cases (those without generated rows), with what the module gives in Node.
const TABLE = JSON.parse(
  readFileSync(new URL("../src/sandbox/analysis/cases.json", import.meta.url), "utf8"),
) as { cases: Array<{ name: string; fn: string; args: unknown[] }> };
const CASES = TABLE.cases
  .filter((entry) => !JSON.stringify(entry.args).includes('"$rows"'))
  .map((entry) => {
    const fn = (analysis as unknown as Record<string, (...args: unknown[]) => unknown>)[entry.fn]!;
    let outcome: unknown;
    try {
      outcome = { ok: fn(...entry.args) };
    } catch (error) {
      outcome = { error: (error as Error).message, name: (error as Error).name };
    }
    return { name: entry.name, fn: entry.fn, args: entry.args, outcome: JSON.parse(JSON.stringify(outcome)) };
  });

for (const runtime of ["isolate", "process"] as const) {
  describe(`toolscript/analysis on the ${runtime} tier`, () => {
    let gateway: Gateway;

    before(async () => {
      gateway = new Gateway({
        config: {
          mcpServers: {},
          toolscript: { sandbox: { runtime, timeoutMs: 10_000, poolSize: 1 }, privacy: { pii: false } },
        },
        store: openMemorySharedStore(),
      });
      await gateway.start();
    });
    after(() => gateway.close());

    test("named imports, a type import, results as in Node; the program type-checks", async () => {
      const code = [
        'import { aggregate, filter, transform, validate, type Metric } from "toolscript/analysis";',
        'const numeric = filter(context.rows, [{ field: "price", op: ">", value: 5 }]);',
        'const metrics: Record<string, Metric> = { n: { op: "count" }, avg: { op: "mean", field: "price" }, sd: { op: "stdev", field: "price" } };',
        'const byRegion = aggregate(numeric, "region", metrics);',
        'const gold = transform(filter(context.rows, [{ field: "customer.tier", op: "==", value: "gold" }]), ["price"], { price: "p" });',
        'const report = validate(context.rows, { price: { type: "number", min: 5 } });',
        "return { byRegion, gold, failures: report.errors.map((e) => e.row + ':' + e.rule) };",
      ].join("\n");
      const response = await gateway.execute({ code, context: { rows: ROWS } });
      assert.equal(response.error, undefined, JSON.stringify(response.error));
      assert.deepEqual(response.result, {
        byRegion: [{ region: "north", n: 3, avg: 20, sd: 10 }],
        gold: [{ p: 10 }, { p: 30 }],
        failures: ["1:min", "3:type"],
      });
    });

    test("a namespace import is frozen; JavaScript programs import it too", async () => {
      const response = await gateway.execute({
        code: 'import * as analysis from "toolscript/analysis";\nreturn [Object.isFrozen(analysis), Object.keys(analysis).sort().join(",")];',
        language: "javascript",
      });
      assert.equal(response.error, undefined, JSON.stringify(response.error));
      assert.deepEqual(response.result, [
        true,
        "AnalysisError,METRIC_OPS,OPERATORS,RULES,TYPES,aggregate,filter,transform,validate",
      ]);
    });

    test("a bad argument throws AnalysisError, catchable, with its path", async () => {
      const code = [
        'import { aggregate, AnalysisError } from "toolscript/analysis";',
        "try {",
        '  aggregate(context.rows, "region", { avg: { op: "mean", field: "price" } });',
        "} catch (error) {",
        "  if (error instanceof AnalysisError) return [error.name, error.code, error.data.path, error.message];",
        "}",
      ].join("\n");
      const response = await gateway.execute({ code, context: { rows: ROWS } });
      assert.equal(response.error, undefined, JSON.stringify(response.error));
      assert.deepEqual(response.result, [
        "AnalysisError",
        "analysis.invalid_input",
        "metrics.avg",
        'metrics.avg: rows[3].price: expected a number, got string "n/a" (null and missing values are skipped)',
      ]);
    });

    test("uncaught, it is a runtime error at the agent's line", async () => {
      const code =
        'import { filter } from "toolscript/analysis";\n\nreturn filter(context.rows, [{ field: "price", op: "in", value: 3 }]);';
      const response = await gateway.execute({ code, context: { rows: ROWS } });
      assert.equal(response.error?.kind, "runtime", JSON.stringify(response.error));
      assert.equal(response.error?.name, "AnalysisError");
      assert.equal(
        response.error?.message,
        'conditions[0].value: operator "in" needs an array, got number 3',
      );
      assert.equal(response.error?.line, 3);
    });

    test("the type check knows its shapes: a bad operator or metric is a type error before anything runs", async () => {
      const badOp = await gateway.execute(
        'import { filter } from "toolscript/analysis";\nreturn filter([{ a: 1 }], [{ field: "a", op: "~=", value: 1 }]);',
      );
      assert.equal(badOp.error?.kind, "type", JSON.stringify(badOp.error));
      assert.equal(badOp.error?.line, 2);
      const badMetric = await gateway.execute(
        'import { aggregate } from "toolscript/analysis";\nreturn aggregate([], null, { x: { op: "avg", field: "a" } });',
      );
      assert.equal(badMetric.error?.kind, "type", JSON.stringify(badMetric.error));
      const missing = await gateway.execute('import { summarise } from "toolscript/analysis";\nreturn 1;');
      assert.equal(missing.error?.kind, "type");
      assert.match(missing.error?.message ?? "", /has no exported member 'summarise'/);
      const unchecked = await gateway.execute({
        code: 'import { summarise } from "toolscript/analysis";\nreturn 1;',
        typecheck: false,
      });
      assert.equal(unchecked.error?.name, "SyntaxError");
      assert.equal(
        unchecked.error?.message,
        'The module "toolscript/analysis" has no export named "summarise"',
      );
    });

    test("the bundled copy answers the shared table exactly as the module does in Node", async () => {
      const code = [
        'import * as analysis from "toolscript/analysis";',
        "const differing = [];",
        "for (const entry of context.cases) {",
        "  let outcome;",
        "  try { outcome = { ok: analysis[entry.fn](...entry.args) }; }",
        "  catch (error) { outcome = { error: error.message, name: error.name }; }",
        "  if (JSON.stringify(outcome) !== JSON.stringify(entry.outcome)) differing.push(entry.name);",
        "}",
        "return { ran: context.cases.length, differing };",
      ].join("\n");
      const response = await gateway.execute({ code, language: "javascript", context: { cases: CASES } });
      assert.equal(response.error, undefined, JSON.stringify(response.error));
      assert.deepEqual(response.result, { ran: CASES.length, differing: [] });
      assert.ok(CASES.length > 80);
    });

    test("a skill imports it; a program imports the skill", async () => {
      const saved = await gateway.skills.save({
        name: `top_${runtime}`,
        description: "Sums a field per group, largest first.",
        code: [
          'import { aggregate, type Row } from "toolscript/analysis";',
          "export function totals(rows: Row[], by: string, field: string): Row[] {",
          '  return aggregate(rows, by, { total: { op: "sum", field } }).sort((a, b) => b.total - a.total);',
          "}",
        ].join("\n"),
      });
      assert.deepEqual(saved.exports, ["totals"]);
      const response = await gateway.execute({
        code: `import { totals } from "skills/top_${runtime}";\nreturn totals(context.rows.slice(0, 3), "region", "price");`,
        context: { rows: ROWS },
      });
      assert.equal(response.error, undefined, JSON.stringify(response.error));
      assert.deepEqual(response.result, [
        { region: "north", total: 30 },
        { region: "south", total: 4 },
      ]);
    });
  });
}
