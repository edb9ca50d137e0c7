import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { CallProgress } from "../bridge/progress.ts";
import type { CatalogTool } from "../catalog/types.ts";
import { SecretRedactor } from "../secrets/redactor.ts";
import { guardProgress, MAX_PROGRESS_MESSAGE_CHARS } from "./progress-guard.ts";

const tool = { server: "s", tool: "t", serverId: "s", toolId: "t", path: "tools.s.t" } as CatalogTool;

/** Resolves once `seen` holds `count` events (at most ~1 s). */
async function until(seen: unknown[], count: number): Promise<void> {
  for (let i = 0; i < 200 && seen.length < count; i++) await sleep(5);
}

test("a server's progress message is cut, redacted of secrets and tokenized before it leaves, in order", async () => {
  const seen: CallProgress[] = [];
  const redactor = new SecretRedactor(["sk-live-123456"]);
  const listener = guardProgress((event) => seen.push(event), {
    redact: (text) => redactor.redact(text),
    // The first message's tokens take longest: the events still pass on in the order they came.
    tokenize: async (text) => {
      if (text.includes("ada@")) await sleep(30);
      return text.replace("ada@example.com", "[EMAIL_1]");
    },
  });
  listener({
    kind: "upstream",
    tool,
    progress: { progress: 1, total: 2, message: "key sk-live-123456 for ada@example.com" },
  });
  listener({ kind: "upstream", tool, progress: { progress: 2, message: "x".repeat(10_000) } });
  listener({ kind: "upstream", tool, progress: { progress: 3 } });
  listener({ kind: "done", tool, ok: true, calls: 1 });
  await until(seen, 4);
  assert.deepEqual(seen[0], {
    kind: "upstream",
    tool,
    progress: { progress: 1, total: 2, message: "key [REDACTED] for [EMAIL_1]" },
  });
  assert.equal(seen[1]?.kind === "upstream" && seen[1].progress.message?.length, MAX_PROGRESS_MESSAGE_CHARS);
  assert.deepEqual(seen.slice(2), [
    { kind: "upstream", tool, progress: { progress: 3 } },
    { kind: "done", tool, ok: true, calls: 1 },
  ]);
});

test("a message whose tokenizing failed is dropped and reported; the events after it still pass", async () => {
  const seen: CallProgress[] = [];
  const errors: unknown[] = [];
  const listener = guardProgress((event) => seen.push(event), {
    redact: (text) => text,
    tokenize: async (text) => {
      if (text.includes("bob@")) throw new Error("the store does not answer");
      return text;
    },
    onError: (error) => errors.push(error),
  });
  listener({ kind: "upstream", tool, progress: { progress: 1, message: "mail bob@example.org" } });
  listener({ kind: "done", tool, ok: true, calls: 1 });
  await until(seen, 1);
  assert.deepEqual(seen, [{ kind: "done", tool, ok: true, calls: 1 }]);
  assert.match(String(errors[0]), /does not answer/);
});

test("without tokenizing, events pass on at once", () => {
  const seen: CallProgress[] = [];
  const listener = guardProgress((event) => seen.push(event), { redact: (text) => text.toUpperCase() });
  listener({ kind: "upstream", tool, progress: { progress: 1, message: "half" } });
  assert.deepEqual(seen, [{ kind: "upstream", tool, progress: { progress: 1, message: "HALF" } }]);
});
