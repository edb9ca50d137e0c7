import assert from "node:assert/strict";
import { test } from "node:test";
import { inProcessSuite } from "./attack-suites.ts";
import { attacks } from "./attacks.ts";

test("the suite has at least 40 attacks", () => {
  assert.ok(attacks({ file: "/x", url: "http://127.0.0.1:1/" }).length >= 40);
});

inProcessSuite("isolate");
