import assert from "node:assert/strict";
import { describe, it } from "node:test";
import ts from "typescript";
import { ANALYSIS_DECLARATION, ANALYSIS_TYPE_EXPORTS } from "./declaration.ts";
import * as implementation from "./index.ts";

function declared(pattern: RegExp): string[] {
  return [...ANALYSIS_DECLARATION.matchAll(pattern)].map((match) => match[1]!).sort();
}

describe("the declaration of toolscript/analysis", () => {
  it("declares every value the module exports, and no other", () => {
    const values = declared(/^export declare (?:function|const|class) (\w+)/gm);
    assert.deepEqual(values, Object.keys(implementation).sort());
  });

  it("lists its type-only names for the sandbox's loader", () => {
    assert.deepEqual(declared(/^export (?:type|interface) (\w+)/gm), [...ANALYSIS_TYPE_EXPORTS].sort());
  });

  it("says the same lists as the implementation", () => {
    const list = (name: string) =>
      JSON.parse(
        `[${/export type (?:\w+) = ([^;]+);/.exec(ANALYSIS_DECLARATION.slice(ANALYSIS_DECLARATION.indexOf(`export type ${name} =`)))?.[1]?.replace(/ \| /g, ",")}]`,
      );
    assert.deepEqual(list("Operator"), [...implementation.OPERATORS]);
    assert.deepEqual(list("MetricOp"), [...implementation.METRIC_OPS]);
    assert.deepEqual(list("FieldType"), [...implementation.TYPES]);
    assert.match(
      ANALYSIS_DECLARATION,
      new RegExp(`rule: ${implementation.RULES.map((rule) => `"${rule}"`).join(" \\| ")};`),
    );
  });

  it("compiles with no error (lib checked too), and a program using every function type-checks", () => {
    const files = new Map([
      ["/analysis.d.ts", ANALYSIS_DECLARATION],
      [
        "/program.ts",
        [
          'import { aggregate, filter, transform, validate, AnalysisError, type Metric, type ValidationReport } from "./analysis";',
          "interface Order { id: number; total: number; customer: { country: string } }",
          "declare const orders: Order[];",
          'const big: Order[] = filter(orders, [{ field: "total", op: ">", value: 100 }], "or");',
          'const metrics: Record<string, Metric> = { n: { op: "count" }, sum: { op: "sum", field: "total" } };',
          'const rows = aggregate(big, ["customer.country"], metrics);',
          "const first: number = rows[0]?.sum;",
          'const slim = transform(orders, ["id"], { id: "orderId" });',
          'const report: ValidationReport = validate(slim, { orderId: { type: ["integer"], required: true, min: 1 } });',
          "const failed = report.errors.map((issue) => issue.row.toFixed() + (issue.field ?? '') + issue.rule);",
          "try { filter(orders, []); } catch (error) { if (error instanceof AnalysisError) error.data.path.toUpperCase(); }",
          "export { first, failed };",
        ].join("\n"),
      ],
    ]);
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2023.d.ts"],
      types: [],
    };
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, version) => {
      const text = files.get(name);
      return text === undefined ? read(name, version) : ts.createSourceFile(name, text, version);
    };
    const exists = host.fileExists.bind(host);
    host.fileExists = (name) => files.has(name) || exists(name);
    const program = ts.createProgram(["/program.ts", "/analysis.d.ts"], options, host);
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    assert.deepEqual(diagnostics, []);
  });
});
