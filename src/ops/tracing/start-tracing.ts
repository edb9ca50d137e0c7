/**
 * The OpenTelemetry SDK for traces, set up from the standard `OTEL_*`
 * variables and only when they ask for it: the SDK and the OTLP exporter are
 * imported here, on demand, so a gateway without them never loads either.
 */
import { DiagLogLevel, diag } from "@opentelemetry/api";
import type { Logger } from "../../gateway/logger.ts";
import { TOOLSCRIPT_VERSION } from "./tracer.ts";
import { tracingSettings } from "./tracing-env.ts";

export interface Tracing {
  /** Whether spans are exported. */
  readonly enabled: boolean;
  /** Exports the spans still queued and stops; bounded by `timeoutMs`. Never rejects. */
  shutdown(timeoutMs?: number): Promise<void>;
}

const OFF: Tracing = { enabled: false, shutdown: () => Promise.resolve() };

/** A flush on exit waits this long at most: a collector that is down must not hold up a shutdown. */
const DEFAULT_SHUTDOWN_MS = 5_000;

/**
 * Registers a global tracer provider exporting to OTLP/HTTP JSON when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set
 * (and neither `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none`).
 * The SDK reads the rest itself: the exporter's headers and timeout, the
 * batch processor's delays, `OTEL_TRACES_SAMPLER` (default parentbased_always_on),
 * `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`. What goes wrong is said
 * through `logger` (stderr): stdout is the MCP stream in stdio mode.
 */
export async function startTracing(
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
): Promise<Tracing> {
  const settings = tracingSettings(env);
  if (!settings.enabled) return OFF;
  for (const warning of settings.warnings) logger.warn(`tracing: ${warning}`);
  diag.setLogger(diagnostics(logger), { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  try {
    const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, resources, core] =
      await Promise.all([
        import("@opentelemetry/sdk-trace-node"),
        import("@opentelemetry/exporter-trace-otlp-http"),
        import("@opentelemetry/resources"),
        import("@opentelemetry/core"),
      ]);
    // The defaults, then what the environment says (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) over them.
    const resource = resources
      .resourceFromAttributes({ "service.name": "toolscript", "service.version": TOOLSCRIPT_VERSION })
      .merge(resources.detectResources({ detectors: [resources.envDetector] }));
    const provider = new NodeTracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
    });
    // AsyncLocalStorage context (the sdk-trace-node default); W3C trace context and baggage.
    provider.register({
      propagator: new core.CompositePropagator({
        propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
      }),
    });
    logger.info(`tracing: exporting spans to ${settings.endpoint} (OTLP/HTTP JSON)`);
    return {
      enabled: true,
      shutdown: (timeoutMs = DEFAULT_SHUTDOWN_MS) => bounded(provider.shutdown(), timeoutMs, logger),
    };
  } catch (error) {
    logger.error(
      `tracing: cannot start the OpenTelemetry SDK: ${error instanceof Error ? error.message : String(error)}`,
    );
    return OFF;
  }
}

async function bounded(work: Promise<void>, timeoutMs: number, logger: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), timeoutMs);
    timer.unref();
  });
  try {
    if ((await Promise.race([work, late])) === "late")
      logger.warn(`tracing: spans not exported within ${timeoutMs} ms of shutting down were dropped`);
  } catch (error) {
    logger.warn(
      `tracing: exporting the last spans failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The SDK's own complaints (an export that failed, a bad variable) on stderr, each
 * message once a minute at most: a collector that is down fails every batch.
 */
function diagnostics(logger: Logger) {
  const said = new Map<string, number>();
  const say =
    (write: (message: string) => void) =>
    (message: string, ...args: unknown[]) => {
      const text = [message, ...args.map((arg) => (arg instanceof Error ? arg.message : String(arg)))].join(
        " ",
      );
      const now = Date.now();
      if ((said.get(text) ?? 0) > now - 60_000) return;
      if (said.size >= 100) said.clear();
      said.set(text, now);
      write(`tracing: ${text}`);
    };
  const warn = say((message) => logger.warn(message));
  return { error: say((message) => logger.error(message)), warn, info: warn, debug: warn, verbose: warn };
}
