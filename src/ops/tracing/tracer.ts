import { readFileSync } from "node:fs";
import { type Tracer, trace } from "@opentelemetry/api";

/** The package's version (src/ops/tracing and dist/ops/tracing are both three levels below it). */
export const TOOLSCRIPT_VERSION: string = (() => {
  try {
    const json = readFileSync(new URL("../../../package.json", import.meta.url), "utf8");
    return (JSON.parse(json) as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
})();

/**
 * The gateway's tracer, through `@opentelemetry/api` only: a no-op until a
 * tracer provider is registered (start-tracing.ts, or an embedding app's own
 * SDK). The api's proxy tracer follows a provider registered later.
 */
export const tracer: Tracer = trace.getTracer("toolscript", TOOLSCRIPT_VERSION);
