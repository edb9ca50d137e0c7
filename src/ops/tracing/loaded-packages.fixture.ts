// Run by start-tracing.test.ts in a process of its own: opens a gateway as `serve` does (tracing
// first), runs one program, and prints which @opentelemetry packages the process loaded.
import { createRequire } from "node:module";
import { Gateway } from "../../gateway/gateway.ts";
import { silentLogger } from "../../gateway/logger.ts";
import { startTracing } from "./start-tracing.ts";

const tracing = await startTracing(process.env, silentLogger);
const gateway = new Gateway({
  config: {
    mcpServers: {},
    toolscript: { storage: { dir: process.argv[2] }, sandbox: { typecheck: false } },
  },
});
await gateway.start();
const response = await gateway.execute("return 6 * 7");
await gateway.close();
await tracing.shutdown(1000);
// The OpenTelemetry packages are CommonJS: whatever was loaded is in the require cache.
const packages = Object.keys(createRequire(import.meta.url).cache)
  .map((path) => /node_modules\/(@opentelemetry\/[^/]+)\//.exec(path)?.[1])
  .filter((name) => name !== undefined);
process.stdout.write(
  JSON.stringify({
    enabled: tracing.enabled,
    result: response.result,
    packages: [...new Set(packages)].sort(),
  }),
);
