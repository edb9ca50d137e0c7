// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references in plain strings are what these tests feed the config.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { interpolate, interpolationMessages } from "./interpolate.ts";

const env = { TOKEN: "abc", EMPTY: "", HOST: "example.com" };

describe("interpolate", () => {
  it("expands ${VAR} anywhere in the text", () => {
    assert.deepEqual(interpolate("Bearer ${TOKEN}", env), { ok: true, value: "Bearer abc" });
    assert.deepEqual(interpolate("https://${HOST}/${TOKEN}/x", env), {
      ok: true,
      value: "https://example.com/abc/x",
    });
  });

  it("keeps an empty variable as empty (it is set)", () => {
    assert.deepEqual(interpolate("a${EMPTY}b", env), { ok: true, value: "ab" });
  });

  it("uses ${VAR:-default} when the variable is unset or empty", () => {
    assert.deepEqual(interpolate("${MISSING:-https://api.example.com}/mcp", env), {
      ok: true,
      value: "https://api.example.com/mcp",
    });
    assert.deepEqual(interpolate("${EMPTY:-fallback}", env), { ok: true, value: "fallback" });
    assert.deepEqual(interpolate("${TOKEN:-fallback}", env), { ok: true, value: "abc" });
    assert.deepEqual(interpolate("${MISSING:-}", env), { ok: true, value: "" });
  });

  it("accepts Cursor's ${env:VAR} spelling", () => {
    assert.deepEqual(interpolate("${env:TOKEN}", env), { ok: true, value: "abc" });
  });

  it("reports each unset variable once and keeps the reference in the best-effort value", () => {
    const result = interpolate("${A} ${B} ${A} ${TOKEN}", env);
    assert.deepEqual(result, { ok: false, value: "${A} ${B} ${A} abc", missing: ["A", "B"], malformed: [] });
    assert.deepEqual(interpolationMessages(result), [
      "environment variable A is not set",
      "environment variable B is not set",
    ]);
  });

  it("treats $${ as a literal ${ and leaves other dollars alone", () => {
    assert.deepEqual(interpolate("$${TOKEN} costs $5 and $TOKEN", env), {
      ok: true,
      value: "${TOKEN} costs $5 and $TOKEN",
    });
  });

  it("reports malformed references", () => {
    const result = interpolate("x ${not a name} ${UNCLOSED", env);
    assert.equal(result.ok, false);
    assert.ok(!result.ok);
    assert.deepEqual(result.malformed, ["${not a name}", "${"]);
    assert.match(interpolationMessages(result)[0] ?? "", /malformed variable reference "\$\{not a name\}"/);
  });
});
