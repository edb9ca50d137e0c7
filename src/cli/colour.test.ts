import assert from "node:assert/strict";
import { test } from "node:test";
import { colourEnabled, forStream } from "./colour.ts";

const painted = "\u001b[4m\u001b[1mUSAGE\u001b[22m\u001b[24m \u001b[36mtoolscript\u001b[39m";

test("colour only on a terminal, never with NO_COLOR, always with FORCE_COLOR", () => {
  assert.equal(colourEnabled({ isTTY: true }, {}), true);
  assert.equal(colourEnabled({ isTTY: false }, {}), false);
  assert.equal(colourEnabled({}, {}), false);
  assert.equal(colourEnabled({ isTTY: true }, { NO_COLOR: "true" }), false);
  assert.equal(colourEnabled({ isTTY: true }, { TERM: "dumb" }), false);
  assert.equal(colourEnabled({ isTTY: false }, { FORCE_COLOR: "1" }), true);
  assert.equal(colourEnabled({ isTTY: true }, { FORCE_COLOR: "0" }), false);
  assert.equal(colourEnabled({ isTTY: true }, { NO_COLOR: "1", FORCE_COLOR: "1" }), false);
});

test("escape sequences are removed unless colour is on", () => {
  assert.equal(forStream(painted, { isTTY: false }, {}), "USAGE toolscript");
  assert.equal(forStream(painted, { isTTY: true }, {}), painted);
});
