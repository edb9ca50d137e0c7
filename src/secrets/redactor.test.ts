import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConfig } from "../config/parse.ts";
import { REDACTED, SecretRedactor } from "./redactor.ts";

test("redacts every configured secret from text and JSON values, longest first", () => {
  const config = parseConfig(
    {
      mcpServers: {
        github: { command: "gh-mcp", env: { GITHUB_TOKEN: "ghp_secret123", SHORT: "abc" } },
        remote: { url: "https://example.invalid/mcp", headers: { Authorization: "Bearer tok-987654" } },
      },
      toolscript: { server: { http: { token: "http-token-xyz" } } },
    },
    { baseDir: "/tmp", env: {} },
  );
  const redactor = SecretRedactor.fromConfig(config);
  assert.equal(redactor.redact("token=ghp_secret123!"), `token=${REDACTED}!`);
  assert.equal(redactor.redact("Authorization: Bearer tok-987654"), `Authorization: ${REDACTED}`);
  assert.equal(redactor.redact("tok-987654 alone"), `${REDACTED} alone`);
  assert.equal(redactor.redact("abc is too short to redact"), "abc is too short to redact");
  assert.deepEqual(
    redactor.redactValue({ env: { X: "http-token-xyz" }, list: ["ghp_secret123", 5], n: null }),
    {
      env: { X: REDACTED },
      list: [REDACTED, 5],
      n: null,
    },
  );
});

test("with no secrets it returns values untouched", () => {
  const redactor = new SecretRedactor([]);
  const value = { a: "b" };
  assert.equal(redactor.redactValue(value), value);
});
