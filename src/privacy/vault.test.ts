import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createPiiDetector } from "./detect.ts";
import { PrivacyError } from "./errors.ts";
import { PiiVault } from "./vault.ts";

describe("PiiVault.tokenize", () => {
  test("replaces each kind with numbered tokens, stable within the vault", () => {
    const vault = new PiiVault();
    assert.equal(
      vault.tokenize("Alice <alice@example.com>, +44 20 7946 0958; Bob <bob@example.com>"),
      "Alice <[EMAIL_1]>, [PHONE_1]; Bob <[EMAIL_2]>",
    );
    // Same value -> same token, in later texts too; identity ignores e-mail case and phone format.
    assert.equal(vault.tokenize("again: ALICE@example.com, +442079460958"), "again: [EMAIL_1], [PHONE_1]");
    assert.equal(vault.tokenize("new: carol@example.com"), "new: [EMAIL_3]");
    assert.equal(vault.size, 4);
  });

  test("text without personal data is returned as is", () => {
    const vault = new PiiVault();
    const text = "build 1.2.3 on 2026-11-22, order 4155552671, total $1,234.56";
    assert.equal(vault.tokenize(text), text);
    assert.equal(vault.size, 0);
  });

  test("separate vaults number independently", () => {
    const a = new PiiVault();
    const b = new PiiVault();
    a.tokenize("x@example.com");
    assert.equal(a.tokenize("y@example.com"), "[EMAIL_2]");
    assert.equal(b.tokenize("y@example.com"), "[EMAIL_1]");
  });
});

describe("PiiVault values", () => {
  test("tokenizeValue: strings deep, numbers and plain keys untouched, keys that are PII tokenized", () => {
    const vault = new PiiVault();
    const value = {
      contacts: [
        { name: "Ann", email: "ann@example.com", phone: "+1 415-555-2671", age: 41, vip: true },
        { name: "Ben", email: "ben@example.com", phone: null, note: "card 4111 1111 1111 1111" },
      ],
      byEmail: { "ann@example.com": 3 },
      total: 2,
    };
    const tokenized = vault.tokenizeValue(value);
    assert.deepEqual(tokenized, {
      contacts: [
        { name: "Ann", email: "[EMAIL_1]", phone: "[PHONE_1]", age: 41, vip: true },
        { name: "Ben", email: "[EMAIL_2]", phone: null, note: "card [CARD_1]" },
      ],
      byEmail: { "[EMAIL_1]": 3 },
      total: 2,
    });
    assert.deepEqual(vault.detokenizeValue(tokenized), value);
    assert.equal(value.contacts[0]?.email, "ann@example.com", "the input is not modified");
  });

  test("detokenize restores the first-seen original and leaves unknown tokens alone", () => {
    const vault = new PiiVault();
    vault.tokenize("Bob.Smith@Example.com");
    assert.equal(vault.tokenize("bob.smith@example.com"), "[EMAIL_1]");
    assert.equal(
      vault.detokenize("to: [EMAIL_1], cc: [EMAIL_9], [PHONE_1]"),
      "to: Bob.Smith@Example.com, cc: [EMAIL_9], [PHONE_1]",
    );
    assert.deepEqual(vault.detokenizeValue({ to: ["[EMAIL_1]"], n: 1 }), {
      to: ["Bob.Smith@Example.com"],
      n: 1,
    });
  });

  test("base64 payloads and data URLs are never scanned (a match would corrupt them)", () => {
    const vault = new PiiVault();
    const blob = `${"QUJD".repeat(100)}DE89370400440532013000${"QUJD".repeat(100)}`;
    const dataUrl = "data:image/png;base64,iVBORw0KGgo4111111111111111AAAA";
    assert.deepEqual(vault.tokenizeValue({ type: "image", data: blob, url: dataUrl }), {
      type: "image",
      data: blob,
      url: dataUrl,
    });
  });

  test("a __proto__ key from JSON stays a plain key", () => {
    const vault = new PiiVault();
    const value = JSON.parse('{"__proto__": {"polluted": "a@example.com"}}') as unknown;
    const tokenized = vault.tokenizeValue(value) as Record<string, unknown>;
    assert.deepEqual(Object.keys(tokenized), ["__proto__"]);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(tokenized), Object.prototype);
  });

  test("custom patterns from config get their own tokens and round-trip", () => {
    const vault = new PiiVault(
      createPiiDetector({ patterns: [{ name: "EMPLOYEE_ID", regex: "\\bE\\d{6}\\b" }] }),
    );
    assert.equal(vault.tokenize("E123456 reports to E654321"), "[EMPLOYEE_ID_1] reports to [EMPLOYEE_ID_2]");
    assert.equal(vault.detokenize("[EMPLOYEE_ID_2]"), "E654321");
  });
});

describe("PiiVault snapshots", () => {
  test("a restored vault keeps its tokens and continues numbering", () => {
    const vault = new PiiVault();
    vault.tokenize("a@example.com b@example.com +1 415-555-2671");
    const restored = PiiVault.fromSnapshot(JSON.parse(JSON.stringify(vault.snapshot())));
    assert.equal(restored.size, 3);
    assert.equal(restored.tokenize("B@EXAMPLE.COM"), "[EMAIL_2]");
    assert.equal(restored.tokenize("c@example.com (415) 555-2671"), "[EMAIL_3] [PHONE_1]");
    assert.equal(restored.detokenize("[EMAIL_1]"), "a@example.com");
  });

  test("malformed snapshots are rejected", () => {
    for (const bad of [null, { version: 2, entries: [] }, { version: 1, entries: [["EMAIL_1", "a", "a"]] }]) {
      assert.throws(
        () => PiiVault.fromSnapshot(bad),
        (error: unknown) => error instanceof PrivacyError && error.code === "privacy.vault_corrupt",
      );
    }
  });
});

describe("PiiVault async tokenization", () => {
  const value = {
    contacts: [
      { name: "Ann", email: "ann@example.com", phone: "+1 415-555-2671", note: "x".repeat(300) },
      { name: "Ben", email: "ben@example.com", note: `card 4111 1111 1111 1111 ${"12345 ".repeat(50_000)}` },
    ],
    byEmail: { "ann@example.com": 3, "carol@example.com": 1 },
    image: "A".repeat(4096),
  };

  test("tokenizeValueAsync gives what tokenizeValue gives, token numbers included", async () => {
    const sync = new PiiVault().tokenizeValue(value);
    const chunked = await new PiiVault().tokenizeValueAsync(value, { chunkChars: 1024 });
    assert.deepEqual(chunked, sync);
    assert.equal((chunked as typeof value).contacts[1]?.email, "[EMAIL_2]");
  });

  test("a value of many small parts: the same tokens as tokenizeValue, with pauses, and no copy where nothing changed", async () => {
    const rows = Array.from({ length: 5000 }, (_, id) => ({
      id,
      name: `row-${id}`,
      note: id % 1000 === 7 ? `write to user${id}@example.com` : "nothing here",
      tags: ["a", "b"],
    }));
    let pauses = 0;
    const chunked = (await new PiiVault().tokenizeValueAsync(rows, {
      chunkChars: 2048,
      pause: async () => {
        pauses++;
      },
    })) as typeof rows;
    assert.deepEqual(chunked, new PiiVault().tokenizeValue(rows));
    assert.equal(chunked[7]?.note, "write to [EMAIL_1]");
    assert.equal(chunked[4007]?.note, "write to [EMAIL_5]");
    assert.ok(pauses > 50, `${pauses} pauses`);
    // Rows without personal data are the rows themselves; the array holding changed rows is new.
    assert.equal(chunked[8], rows[8]);
    assert.notEqual(chunked, rows);
    const clean = { rows: rows.slice(0, 5), total: 5 };
    assert.equal(await new PiiVault().tokenizeValueAsync(clean), clean);
  });

  test("tokenizeAsync gives what tokenize gives", async () => {
    const text = JSON.stringify(value);
    assert.equal(
      await new PiiVault().tokenizeAsync(text, { chunkChars: 5000 }),
      new PiiVault().tokenize(text),
    );
  });
});
