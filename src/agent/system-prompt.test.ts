import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { codeModeSystemPrompt } from "./system-prompt.ts";

describe("codeModeSystemPrompt", () => {
  it("teaches search, declarations and one program, and solve_task only when offered", () => {
    const plain = codeModeSystemPrompt(["search_tools", "list_tools", "describe_tools", "execute_code"]);
    for (const step of [/search_tools/, /describe_tools/, /ONE execute_code program/, /short and direct/]) {
      assert.match(plain, step);
    }
    assert.doesNotMatch(plain, /solve_task/);
    const withSolve = codeModeSystemPrompt(["search_tools", "execute_code", "solve_task"]);
    assert.match(withSolve, /prefer solve_task/);
    // The answer instruction stays last.
    assert.match(withSolve, /no account of the steps you took\.$/);
  });
});
