import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeHostMessage } from "../../process/protocol.ts";
import type { HostReply } from "../../shared/host-calls.ts";
import { replyText } from "./reply-text.ts";

describe("replyText: a reply line cut to its id and JSON text, unparsed", () => {
  it("finds the id and the reply of what the host encodes", () => {
    const replies: HostReply[] = [
      { ok: true, json: JSON.stringify({ text: 'quotes " and \\n, "reply": inside', n: [1, 2] }) },
      { ok: true },
      { ok: false, error: { name: "ToolError", message: "}", code: "x", dataJson: "{}" } },
    ];
    for (const [index, reply] of replies.entries()) {
      const line = encodeHostMessage({ type: "reply", id: index + 1, reply }).trimEnd();
      const cut = replyText(line);
      assert.equal(cut?.id, index + 1);
      assert.deepEqual(JSON.parse(cut?.json ?? "null"), reply);
    }
  });

  it("leaves every other line to the JSON parser", () => {
    const run = encodeHostMessage({
      type: "run",
      code: "1",
      toolsJson: "{}",
      limitsJson: "{}",
      search: false,
    });
    assert.equal(replyText(run.trimEnd()), undefined);
    assert.equal(replyText('{"type":"reply","id":"x","reply":{}}'), undefined);
    assert.equal(replyText("not json"), undefined);
  });
});
