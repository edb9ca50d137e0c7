import assert from "node:assert/strict";
import { test } from "node:test";
import { closeMatches, editDistance, suggestKey } from "./suggest.ts";

test("closeMatches ranks like the sandbox's Unknown tool message", () => {
  const tools = ["get_annotated_message", "get_env", "get_structured_content", "get_sum", "echo"];
  assert.deepEqual(closeMatches("get_summ", tools), ["get_sum"]);
  assert.deepEqual(closeMatches("GET-SUM", tools), ["get_sum"]);
  assert.deepEqual(closeMatches("ech", tools), ["echo"]);
  assert.deepEqual(closeMatches("zzzzzzzz", tools), []);
  assert.deepEqual(closeMatches("", tools), []);
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(suggestKey("timeoutMS", ["timeoutMs", "memoryMb"]), "timeoutMs");
});
