/**
 * The names `toolscript/analysis` exports as types only (declaration.ts): an
 * import of one binds nothing at run time, so the sandbox's loader lets it pass.
 */
export const ANALYSIS_TYPE_EXPORTS: readonly string[] = [
  "Row",
  "Operator",
  "Condition",
  "MetricOp",
  "Metric",
  "FieldType",
  "FieldRules",
  "ValidationIssue",
  "ValidationReport",
];
