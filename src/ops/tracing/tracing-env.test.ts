import assert from "node:assert/strict";
import { test } from "node:test";
import { tracingSettings } from "./tracing-env.ts";

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" };

test("traces are off unless an OTLP endpoint is set", () => {
  assert.equal(tracingSettings({}).enabled, false);
  assert.equal(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: " " }).enabled, false);
  assert.deepEqual(tracingSettings(ENDPOINT), {
    enabled: true,
    endpoint: "http://127.0.0.1:4318",
    warnings: [],
  });
  const traces = tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" });
  assert.equal(traces.enabled && traces.endpoint, "http://127.0.0.1:4318/v1/traces");
});

test("OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none turn them off", () => {
  assert.equal(tracingSettings({ ...ENDPOINT, OTEL_SDK_DISABLED: "TRUE" }).enabled, false);
  assert.equal(tracingSettings({ ...ENDPOINT, OTEL_SDK_DISABLED: "false" }).enabled, true);
  assert.equal(tracingSettings({ ...ENDPOINT, OTEL_TRACES_EXPORTER: "none" }).enabled, false);
});

test("a protocol or exporter other than OTLP http/json is warned about", () => {
  for (const [name, value] of [
    ["OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"],
    ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf"],
    ["OTEL_TRACES_EXPORTER", "console"],
  ] as const) {
    const settings = tracingSettings({ ...ENDPOINT, [name]: value });
    assert.ok(settings.enabled);
    assert.equal(settings.warnings.length, 1);
    assert.match(settings.warnings[0] ?? "", new RegExp(`${name}=${value}`));
  }
  const json = tracingSettings({ ...ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
  assert.deepEqual(json.enabled && json.warnings, []);
});
