import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BoundedLineReader, type OversizedLine } from "./line-reader.ts";
import { isMessageTooLarge, oversizedReply } from "./oversized-message.ts";

function collect(max: number) {
  const lines: string[] = [];
  const oversized: OversizedLine[] = [];
  const reader = new BoundedLineReader(max, {
    line: (text) => lines.push(text),
    oversized: (line) => oversized.push(line),
  });
  return { reader, lines, oversized };
}

describe("BoundedLineReader", () => {
  test("splits lines across chunks and drops \\r", () => {
    const { reader, lines } = collect(100);
    reader.push(Buffer.from('{"a":1}\r\n{"b"'));
    reader.push(Buffer.from(':2}\n\n{"c":3}'));
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}', ""]);
    reader.push(Buffer.from("\n"));
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}', "", '{"c":3}']);
  });

  test("skips a line over the limit without buffering it, reports its size and ends, and reads on", () => {
    const { reader, lines, oversized } = collect(64);
    const big = `{"result":{"text":"${"x".repeat(5000)}"},"jsonrpc":"2.0","id":7}`;
    for (let at = 0; at < big.length; at += 100) reader.push(Buffer.from(big.slice(at, at + 100)));
    reader.push(Buffer.from('\n{"ok":true}\n'));
    assert.equal(oversized.length, 1);
    assert.equal(oversized[0]?.bytes, big.length);
    assert.ok(oversized[0]?.head.startsWith('{"result":'));
    assert.ok(oversized[0]?.tail.endsWith('"id":7}'));
    assert.deepEqual(lines, ['{"ok":true}']);
  });

  test("a single chunk holding several lines and an oversized one", () => {
    const { reader, lines, oversized } = collect(16);
    reader.push(Buffer.from(`{"a":1}\n${"y".repeat(40)}\n{"b":2}\n`));
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
    assert.equal(oversized[0]?.bytes, 40);
  });
});

describe("oversizedReply", () => {
  test("answers the call whose id ends the message (TypeScript SDK order)", () => {
    const reply = oversizedReply(
      { bytes: 11_000_000, head: '{"result":{"content":[', tail: '"jsonrpc":"2.0","id":12}' },
      10,
    );
    assert.ok(reply && "error" in reply);
    assert.equal(reply.id, 12);
    assert.ok(isMessageTooLarge(reply.error.data));
    assert.match(reply.error.message, /10\.5 MiB \(11000000 bytes\), over the limit of 10 bytes/);
  });

  test("answers the call whose id leads the message (Python SDK order), string ids too", () => {
    const reply = oversizedReply(
      { bytes: 20, head: '{"jsonrpc":"2.0","id":"a-1","result":{', tail: "}}" },
      10,
    );
    assert.ok(reply && "error" in reply);
    assert.equal(reply.id, "a-1");
  });

  test("a request or notification from the server is not mistaken for an answer", () => {
    assert.equal(
      oversizedReply(
        { bytes: 20, head: '{"method":"sampling/createMessage","params":{', tail: '"jsonrpc":"2.0","id":3}' },
        10,
      ),
      undefined,
    );
    assert.equal(
      oversizedReply({ bytes: 20, head: '{"result":{"nested":{', tail: '"id":3}}}' }, 10),
      undefined,
    );
  });
});
