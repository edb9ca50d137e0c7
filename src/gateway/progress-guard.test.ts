import assert from "node:assert/strict";
import { test } from "node:test";
import type { CallProgress } from "../bridge/progress.ts";
import type { CatalogTool } from "../catalog/types.ts";
import { SecretRedactor } from "../secrets/redactor.ts";
import { guardProgress, MAX_PROGRESS_MESSAGE_CHARS } from "./progress-guard.ts";

const tool = { server: "s", tool: "t", serverId: "s", toolId: "t", path: "tools.s.t" } as CatalogTool;

test("a server's progress message is cut, redacted of secrets and tokenized before it leaves", () => {
  const seen: CallProgress[] = [];
  const redactor = new SecretRedactor(["sk-live-123456"]);
  const listener = guardProgress((event) => seen.push(event), {
    redact: (text) => redactor.redact(text),
    tokenize: (text) => text.replace("ada@example.com", "[EMAIL_1]"),
  });
  listener({
    kind: "upstream",
    tool,
    progress: { progress: 1, total: 2, message: "key sk-live-123456 for ada@example.com" },
  });
  listener({ kind: "upstream", tool, progress: { progress: 2, message: "x".repeat(10_000) } });
  listener({ kind: "upstream", tool, progress: { progress: 3 } });
  listener({ kind: "done", tool, ok: true, calls: 1 });
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
