import assert from "node:assert/strict";
import { test } from "node:test";
import { dropNullOptionals } from "./null-optionals.ts";

const schema = {
  type: "object",
  properties: {
    region: { type: "string" },
    verbose: { type: "boolean" },
    note: { type: ["string", "null"] },
    pick: { anyOf: [{ type: "string" }, { type: "null" }] },
    anything: { description: "no type" },
  },
  required: ["region"],
};

test("null for an optional argument that does not admit null is dropped; everything else is kept", () => {
  const args = { region: null, verbose: null, note: null, pick: null, anything: null, extra: null, ok: 1 };
  assert.deepEqual(dropNullOptionals(schema, args), {
    region: null,
    note: null,
    pick: null,
    anything: null,
    extra: null,
    ok: 1,
  });
  const untouched = { region: "x", verbose: true };
  assert.equal(dropNullOptionals(schema, untouched), untouched);
  assert.equal(dropNullOptionals(schema, "not an object"), "not an object");
});
