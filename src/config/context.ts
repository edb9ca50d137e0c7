import { z } from "zod";
import type { Env } from "./interpolate.ts";
import { interpolate, interpolationMessages } from "./interpolate.ts";

/** What resolving a config depends on besides its JSON. */
export interface ResolveContext {
  /** Absolute directory relative paths (`cwd`, `storage.dir`) resolve against: the config file's. */
  baseDir: string;
  /** Variables `${VAR}` references expand from. Passed explicitly: only the CLI reads `process.env`. */
  env: Env;
}

/** A string with `${VAR}` references expanded; an unresolvable reference is an issue at the field. */
export function interpolatedString(ctx: ResolveContext) {
  return z.string().transform((text, zctx) => {
    const result = interpolate(text, ctx.env);
    for (const message of interpolationMessages(result)) {
      zctx.issues.push({ code: "custom", message, input: text });
    }
    return result.value;
  });
}
