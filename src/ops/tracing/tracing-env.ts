/**
 * Whether the standard `OTEL_*` variables ask for traces, read without loading
 * any of the SDK: a gateway started without them never loads it.
 */

/** What the environment says about traces. */
export type TracingSettings =
  | { enabled: false; reason: string }
  | {
      enabled: true;
      /** Where spans go, for the start-up line (the exporter reads the variables itself). */
      endpoint: string;
      /** Things set that this gateway does differently than asked, to say on stderr. */
      warnings: string[];
    };

type Env = Readonly<Record<string, string | undefined>>;

/** Set and not blank: the OTel specification treats an empty variable as unset. */
function variable(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

export function tracingSettings(env: Env): TracingSettings {
  if (variable(env, "OTEL_SDK_DISABLED")?.toLowerCase() === "true")
    return { enabled: false, reason: "OTEL_SDK_DISABLED is true" };
  const exporters = (variable(env, "OTEL_TRACES_EXPORTER") ?? "otlp")
    .toLowerCase()
    .split(",")
    .map((name) => name.trim());
  if (exporters.includes("none")) return { enabled: false, reason: "OTEL_TRACES_EXPORTER is none" };
  const endpoint =
    variable(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") ?? variable(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  if (endpoint === undefined)
    return {
      enabled: false,
      reason: "neither OTEL_EXPORTER_OTLP_ENDPOINT nor OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set",
    };
  const warnings: string[] = [];
  const other = exporters.filter((name) => name !== "otlp");
  // "console" would write spans to stdout, which is the MCP stream in stdio mode.
  if (other.length > 0)
    warnings.push(`OTEL_TRACES_EXPORTER=${other.join(",")} is not supported here; spans go to OTLP only`);
  const protocolVariable = variable(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
    ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
    : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const protocol = variable(env, protocolVariable);
  if (protocol !== undefined && protocol !== "http/json")
    warnings.push(
      `${protocolVariable}=${protocol} is not supported here (only the http/json exporter is installed); spans are sent as OTLP/HTTP JSON`,
    );
  return { enabled: true, endpoint, warnings };
}
