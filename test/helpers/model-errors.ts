import assert from "node:assert/strict";
import { ModelError } from "../../src/llm/errors.ts";

/** Awaits `promise`, which must reject with a ModelError of `code`; returns that error. */
export async function rejectsWithModelError(promise: Promise<unknown>, code: string): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ModelError, `expected a ModelError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return error;
  }
  assert.fail(`expected ${code}`);
}
