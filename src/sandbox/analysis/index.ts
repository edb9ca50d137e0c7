/**
 * `toolscript/analysis`: filter, aggregate, transform and validate rows of
 * JSON inside the sandbox, so a program returns a summary instead of the data.
 * Plain code with no imports of the host: bundled into the prelude of both
 * tiers (shared/prelude/modules.ts) and imported by programs and skills as
 * `import { aggregate } from "toolscript/analysis"`. Python has the same
 * functions, with the same results, in python/lib/toolscript/analysis.py;
 * cases.json is the table both are tested against.
 */
export { aggregate, METRIC_OPS, type Metric, type MetricOp } from "./aggregate.ts";
export { AnalysisError } from "./errors.ts";
export { type Condition, filter, OPERATORS, type Operator } from "./filter.ts";
export { transform } from "./transform.ts";
export {
  type FieldRules,
  type FieldType,
  RULES,
  TYPES,
  type ValidationIssue,
  type ValidationReport,
  validate,
} from "./validate.ts";
