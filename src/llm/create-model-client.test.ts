import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startAnthropicStub } from "../../test/helpers/model-stubs/anthropic-messages-stub.ts";
import { startOpenAIStub } from "../../test/helpers/model-stubs/openai-chat-stub.ts";
import type { LlmSettings } from "../config/settings.ts";
import { createModelClient } from "./create-model-client.ts";
import { ModelError } from "./errors.ts";
import type { ModelRequest } from "./types.ts";
import { formatUsage, UsageLedger, withUsage } from "./usage-ledger.ts";

const hello: ModelRequest = { messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }] };

function settings(overrides: Partial<LlmSettings>): LlmSettings {
  return {
    provider: "openai",
    model: "m",
    apiKey: undefined,
    maxTokens: 100,
    maxRetries: 0,
    timeoutMs: 5_000,
    approveGenerated: false,
    ...overrides,
  };
}

function throwsCode(run: () => unknown, code: string): ModelError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ModelError, String(error));
    assert.equal(error.code, code, error.message);
    return error;
  }
  assert.fail(`expected ${code}`);
}

describe("createModelClient", () => {
  it("reads the key from the config, else the provider's env variable", async () => {
    const anthropic = await startAnthropicStub(() => ({ text: "a" }));
    const openai = await startOpenAIStub(() => ({ text: "o" }));
    try {
      const env = { ANTHROPIC_API_KEY: "env-ant", OPENAI_API_KEY: "env-oai" };
      const fromEnv = createModelClient(settings({ provider: "anthropic", baseUrl: anthropic.baseUrl }), {
        env,
      });
      assert.equal(fromEnv.provider, "anthropic");
      await fromEnv.complete(hello);
      const sent = anthropic.requests[0]?.headers;
      assert.match(`${sent?.["x-api-key"] ?? ""} ${sent?.authorization ?? ""}`, /env-ant/);

      const fromConfig = createModelClient(settings({ baseUrl: openai.baseUrl, apiKey: "cfg-oai" }), { env });
      await fromConfig.complete(hello);
      assert.equal(openai.requests[0]?.headers.authorization, "Bearer cfg-oai");
      const openaiFromEnv = createModelClient(settings({ baseUrl: openai.baseUrl }), { env });
      await openaiFromEnv.complete(hello);
      assert.equal(openai.requests[1]?.headers.authorization, "Bearer env-oai");
    } finally {
      await anthropic.close();
      await openai.close();
    }
  });

  it("refuses a hosted provider without a key, naming toolscript.llm.apiKey and the variable", () => {
    const anthropic = throwsCode(
      () => createModelClient(settings({ provider: "anthropic" }), { env: { ANTHROPIC_API_KEY: "" } }),
      "llm.no_api_key",
    );
    assert.match(anthropic.message, /toolscript\.llm\.apiKey/);
    assert.match(anthropic.message, /ANTHROPIC_API_KEY/);
    assert.equal(anthropic.data.provider, "anthropic");
    const openai = throwsCode(() => createModelClient(settings({}), { env: {} }), "llm.no_api_key");
    assert.match(openai.message, /OPENAI_API_KEY/);
    // A local server (baseUrl) needs none.
    const local = createModelClient(settings({ baseUrl: "http://127.0.0.1:11434/v1" }), { env: {} });
    assert.equal(local.provider, "openai");
  });

  it("without toolscript.llm: sampling when offered, else llm.not_configured", () => {
    throwsCode(() => createModelClient(undefined, { env: {} }), "llm.not_configured");
    const sampling = createModelClient(undefined, {
      env: {},
      sampling: { send: undefined, capabilities: { sampling: {} } },
    });
    assert.equal(sampling.provider, "sampling");
  });

  it("loads no provider SDK until the first request", async () => {
    // A child process whose module resolution refuses the SDKs: creating clients must still work.
    const hooks = `data:text/javascript,${encodeURIComponent(
      `export async function resolve(specifier, context, next) {
         if (specifier === "@anthropic-ai/sdk" || specifier === "openai") throw new Error("loaded " + specifier);
         return next(specifier, context);
       }`,
    )}`;
    const register = `data:text/javascript,${encodeURIComponent(
      `import { register } from "node:module"; register(${JSON.stringify(hooks)});`,
    )}`;
    const entry = fileURLToPath(new URL("../index.ts", import.meta.url));
    const script = `
      const { createModelClient } = await import(${JSON.stringify(entry)});
      const base = { model: "m", maxTokens: 1, maxRetries: 0, timeoutMs: 1000, approveGenerated: false, apiKey: "k" };
      createModelClient({ ...base, provider: "anthropic" }, { env: {} });
      const client = createModelClient({ ...base, provider: "openai" }, { env: {} });
      try { await client.complete({ messages: [] }); console.log("no refusal"); }
      catch (error) { console.log(String(error.message)); }
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--import", register, "--input-type=module", "-e", script],
      { timeout: 60_000 },
    );
    // The refusal came only at the first request, proving nothing loaded them before.
    assert.match(stdout, /loaded openai/);
  });
});

describe("usage ledger", () => {
  it("totals requests, tokens, failures and cost through withUsage", async () => {
    const stub = await startOpenAIStub(({ index }) =>
      index === 1
        ? { status: 400, message: "bad" }
        : { text: "x", usage: { inputTokens: 1000, outputTokens: 200 } },
    );
    try {
      const ledger = new UsageLedger({ inputPerMTok: 3, outputPerMTok: 15 });
      const client = withUsage(
        createModelClient(settings({ baseUrl: stub.baseUrl, model: "gpt-test" }), { env: {} }),
        ledger,
      );
      assert.equal(client.model, "gpt-test");
      await client.complete(hello);
      await assert.rejects(client.complete(hello), ModelError);
      await client.complete(hello, { onText: () => {} });
      const totals = ledger.totals();
      assert.deepEqual(totals, {
        requests: 2,
        failures: 1,
        inputTokens: 2000,
        outputTokens: 400,
        costUsd: (2000 * 3 + 400 * 15) / 1_000_000,
      });
      assert.equal(
        formatUsage(totals),
        "2 model requests, 2,000 input + 400 output tokens, 1 failed, $0.0120",
      );
      assert.equal(new UsageLedger().totals().costUsd, undefined, "no pricing, no cost");
    } finally {
      await stub.close();
    }
  });
});
