/**
 * Modules built into the sandbox, importable by programs and skills next to
 * `skills/<name>`: `toolscript/analysis` (sandbox/analysis/). Their code is
 * bundled into the prelude, so importing one costs no call to the host; the
 * sandbox lives for one execution, so each run gets its own copy.
 */
import {
  AnalysisError,
  aggregate,
  filter,
  METRIC_OPS,
  OPERATORS,
  RULES,
  TYPES,
  transform,
  validate,
} from "../../analysis/index.ts";
import { ANALYSIS_TYPE_EXPORTS } from "../../analysis/type-exports.ts";
import { ANALYSIS_MODULE } from "./constants.ts";
import { freeze } from "./intrinsics.ts";

export interface BuiltinModule {
  /** Frozen, as a module namespace is not writable. */
  exports: object;
  /** Names declared as types only: importing one binds nothing. */
  typeExports: readonly string[];
}

let analysis: BuiltinModule | undefined;

/** The built-in module named `specifier`, or undefined when there is none by that name. */
export function builtinModule(specifier: unknown): BuiltinModule | undefined {
  if (specifier !== ANALYSIS_MODULE) return undefined;
  analysis ??= {
    exports: freeze({
      AnalysisError,
      aggregate,
      filter,
      transform,
      validate,
      OPERATORS,
      METRIC_OPS,
      RULES,
      TYPES,
    }),
    typeExports: ANALYSIS_TYPE_EXPORTS,
  };
  return analysis;
}
