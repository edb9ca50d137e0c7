import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const FIXTURE = fileURLToPath(new URL("./loaded-packages.fixture.ts", import.meta.url));

/** Runs the fixture with the OTEL_* variables of this process removed and `otel` set. */
function loadedPackages(dir: string, otel: Record<string, string>) {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("OTEL_")) env[name] = value;
  return new Promise<{ enabled: boolean; result: unknown; packages: string[] }>((resolve, reject) => {
    execFile(
      process.execPath,
      ["--import", import.meta.resolve("tsx"), FIXTURE, dir],
      { env: { ...env, ...otel }, timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

describe("startTracing", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolscript-tracing-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("without OTEL_* variables the SDK is never loaded, only the API", async () => {
    const run = await loadedPackages(dir, {});
    assert.equal(run.enabled, false);
    assert.equal(run.result, 42);
    assert.deepEqual(run.packages, ["@opentelemetry/api"]);
  });

  test("with an OTLP endpoint it loads the SDK and the OTLP/HTTP exporter", async () => {
    // Port 9 (discard) on loopback: nothing listens, the export fails at once, the run still ends.
    const run = await loadedPackages(dir, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
    assert.equal(run.enabled, true);
    assert.equal(run.result, 42);
    assert.ok(run.packages.includes("@opentelemetry/sdk-trace-node"), run.packages.join(", "));
    assert.ok(run.packages.includes("@opentelemetry/exporter-trace-otlp-http"), run.packages.join(", "));
  });

  test("OTEL_SDK_DISABLED=true keeps it off", async () => {
    const run = await loadedPackages(dir, {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9",
      OTEL_SDK_DISABLED: "true",
    });
    assert.equal(run.enabled, false);
    assert.deepEqual(run.packages, ["@opentelemetry/api"]);
  });
});
