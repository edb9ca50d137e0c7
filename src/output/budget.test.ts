import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { LogEntry } from "../sandbox/types.ts";
import { fitToBudget } from "./budget.ts";
import { renderValue } from "./render-value.ts";
import { claudeLegacyTokenizer as tokenizer } from "./tokenizer.ts";

const CITIES = ["Paris", "Oslo", "Lima", "Kyoto"];
/** 10,000 order rows like a CRM or database tool returns. */
const rows = Array.from({ length: 10_000 }, (_, i) => ({
  id: i,
  customer: `customer-${i}`,
  city: CITIES[i % 4] as string,
  amount: Math.round(i * 137.3) / 100,
  paid: i % 2 === 0,
}));
/** A ~50k-token meeting transcript, numbered so head and tail can be recognised. */
const transcript = Array.from(
  { length: 4000 },
  (_, i) => `[${String(i).padStart(4, "0")}] Speaker ${i % 5}: we agreed to revisit the budget next quarter.`,
).join("\n");

const options = { maxTokens: 2000, tokenizer, maxTokensLimit: 20_000 };

describe("fitToBudget under budget", () => {
  test("nothing changes: logs and value as they are, compact JSON", () => {
    const value = { top: rows.slice(0, 3).map((row) => row.id), total: 10_000 };
    const answer = fitToBudget(value, [{ level: "log", message: "loaded 10000 rows" }], options);
    assert.equal(answer.text, 'Logs:\nloaded 10000 rows\n\nResult:\n{"top":[0,1,2],"total":10000}');
    assert.equal(answer.tokens, tokenizer.count(answer.text));
    assert.equal(answer.reduced, undefined);
    assert.deepEqual(answer.structured, {
      result: value,
      logs: [{ level: "log", message: "loaded 10000 rows" }],
    });
  });

  test("no value and no logs", () => {
    assert.equal(fitToBudget(undefined, [], options).text, "Done (no result returned).");
  });
});

describe("fitToBudget strategies on 10,000 rows", () => {
  test("auto samples: first and last rows, a marker with the count, a note saying how to get more", () => {
    const answer = fitToBudget(rows, [], options);
    assert.ok(answer.tokens <= 2000);
    assert.equal(answer.tokens, tokenizer.count(answer.text));
    assert.equal(answer.reduced?.strategy, "sample");
    const header = /^Result \(sampled: ([\d,]+) of 10,000 items shown\):$/m.exec(answer.text);
    assert.ok(header, answer.text.slice(0, 200));
    const shown = Number(header[1]?.replace(/,/g, ""));
    assert.ok(shown >= 20, `only ${shown} rows shown`);
    const head = shown - Math.floor(shown / 4);
    const tail = shown - head;
    const marker = `[… ${(10_000 - shown).toLocaleString("en-US")} items omitted here: 10,000 in total, showing the first ${head} and the last ${tail} …]`;
    const structured = answer.structured.result as unknown[];
    assert.equal(structured.length, shown + 1);
    assert.equal(structured[head], marker);
    assert.deepEqual(structured[0], rows[0]);
    assert.deepEqual(structured.at(-1), rows[9999]);
    assert.ok(answer.text.includes(JSON.stringify(marker)));
    assert.ok(answer.text.includes(JSON.stringify(rows[9999])));
    assert.ok(
      answer.text.endsWith(
        "what is shown is not the complete value. To get more: filter or aggregate in code and return only what you need, or pass a larger maxTokens (up to 20,000).",
      ),
    );
    assert.match(
      answer.text,
      /Note: the result \(~[\d,]+ tokens\) was reduced \(sample\) to fit the 2,000-token output budget/,
    );
    assert.ok((answer.reduced?.originalTokens ?? 0) > 200_000);
    assert.deepEqual(answer.structured.resultReduced, answer.reduced);
  });

  test("truncate keeps head and tail, and the marker accounts for every cut character and line", () => {
    const answer = fitToBudget(rows, [], { ...options, strategy: "truncate" });
    assert.ok(answer.tokens <= 2000);
    assert.equal(answer.reduced?.strategy, "truncate");
    const rendered = renderValue(rows);
    const text = answer.structured.result as string;
    const marker =
      /\n\[… ([\d,]+) of ([\d,]+) characters cut here \(~([\d,]+) tokens, lines ([\d,]+)–([\d,]+) of 10,002\) …\]\n/.exec(
        text,
      );
    assert.ok(marker, text.slice(0, 300));
    const [cut, total, , firstLine, lastLine] = marker.slice(1).map((n) => Number(n.replace(/,/g, "")));
    const head = text.slice(0, marker.index + 1);
    const tail = text.slice(marker.index + marker[0].length);
    assert.equal(total, rendered.length);
    assert.equal(head.length + (cut as number) + tail.length, rendered.length);
    assert.ok(rendered.startsWith(head) && rendered.endsWith(tail));
    // Cuts fall on line breaks: the lines named are exactly the ones missing.
    assert.equal(firstLine, head.split("\n").length);
    assert.equal(lastLine, 10_002 - tail.split("\n").length);
    assert.match(answer.text, /^Result \(truncated: head and tail shown, ~[\d,]+ of ~[\d,]+ tokens\):$/m);
  });

  test("summarize gives the shape: types, counts, ranges, distinct values", () => {
    const answer = fitToBudget(rows, [], { ...options, strategy: "summarize" });
    assert.equal(answer.reduced?.strategy, "summarize");
    assert.deepEqual(answer.structured.result, {
      type: "array",
      length: 10_000,
      items: {
        type: "object",
        fields: {
          id: { type: "number", min: 0, max: 9999, mean: 4999.5, integers: true },
          customer: {
            type: "string",
            distinct: "more than 1000",
            length: { min: 10, max: 13 },
            examples: ["customer-0", "customer-1", "customer-2"],
          },
          city: {
            type: "string",
            distinct: 4,
            length: { min: 4, max: 5 },
            examples: ["Paris", "Oslo", "Lima"],
          },
          amount: { type: "number", min: 0, max: 13728.63, mean: 6864.31 },
          paid: { type: "boolean", booleans: { true: 5000, false: 5000 } },
        },
      },
    });
    assert.match(
      answer.text,
      /^Result \(summarized: the shape of the data \(types, counts, ranges\), not the data\):$/m,
    );
    assert.ok(answer.tokens <= 2000);
  });

  test("a big array inside an object: the other fields stay, the array is sampled", () => {
    const answer = fitToBudget({ total: 10_000, source: "orders.csv", rows }, [], options);
    const result = answer.structured.result as { total: number; source: string; rows: unknown[] };
    assert.equal(result.total, 10_000);
    assert.equal(result.source, "orders.csv");
    assert.ok(
      result.rows.some(
        (item) => typeof item === "string" && item.includes("items omitted here: 10,000 in total"),
      ),
    );
    assert.ok(answer.tokens <= 2000);
  });

  test("with sessions, the note names the workspace file holding the full value", () => {
    const answer = fitToBudget(rows, [], { ...options, fullValuePath: "results/exec-1.json" });
    assert.equal(answer.reduced?.fullValuePath, "results/exec-1.json");
    assert.ok(
      answer.text.endsWith(
        "The full value was written to the session workspace as `results/exec-1.json`: read it from code in the next execution and return only what you need.",
      ),
    );
  });
});

describe("fitToBudget on long text and logs", () => {
  test("a 50k-token transcript is truncated to its first and last lines", () => {
    assert.ok(tokenizer.count(transcript) > 45_000);
    const answer = fitToBudget(transcript, [], options);
    assert.equal(answer.reduced?.strategy, "truncate");
    assert.ok(answer.tokens <= 2000);
    const text = answer.structured.result as string;
    assert.ok(text.startsWith("[0000] Speaker 0:"));
    assert.ok(text.endsWith("[3999] Speaker 4: we agreed to revisit the budget next quarter."));
    assert.match(
      text,
      /\n\[… [\d,]+ of [\d,]+ characters cut here \(~[\d,]+ tokens, lines [\d,]+–[\d,]+ of 4,000\) …\]\n\[\d{4}\]/,
    );
  });

  test("5,000 log lines keep the first and last ones, and the small result is untouched", () => {
    const logs: LogEntry[] = Array.from({ length: 5000 }, (_, i) => ({
      level: i === 4999 ? "warn" : "log",
      message: `step ${i}: processed batch ${i} of 5000`,
    }));
    const answer = fitToBudget({ ok: true, batches: 5000 }, logs, { ...options, maxTokens: 1000 });
    assert.ok(answer.tokens <= 1000);
    assert.equal(answer.reduced, undefined);
    assert.ok(answer.text.startsWith("Logs:\nstep 0: processed batch 0 of 5000\nstep 1:"));
    assert.ok(answer.text.includes("[warn] step 4999: processed batch 4999 of 5000\n\nResult:\n"));
    assert.ok(answer.text.endsWith('Result:\n{"ok":true,"batches":5000}'));
    const omitted = answer.logsReduced?.omittedLines ?? 0;
    assert.ok(omitted > 4000 && omitted < 5000);
    const marker = answer.structured.logs.find((entry) => entry.message.includes("log lines omitted"));
    assert.match(
      marker?.message ?? "",
      new RegExp(
        `^\\[… ${omitted.toLocaleString("en-US")} of 5,000 log lines omitted here \\(~[\\d,]+ tokens\\) …\\]$`,
      ),
    );
    assert.equal(marker?.level, "info");
    assert.equal(answer.structured.logs.length, 5000 - omitted + 1);
  });

  test("logs cut by the sandbox say so", () => {
    const answer = fitToBudget(1, [{ level: "log", message: "a" }], { ...options, logsTruncated: true });
    assert.equal(
      answer.text,
      "Logs:\na\n[… logs truncated at the sandbox's size limit (sandbox.maxLogBytes) …]\n\nResult:\n1",
    );
  });

  test("an error is budgeted too", () => {
    const error = `ToolError (tool): crm/export failed: ${"x".repeat(40_000)}`;
    const answer = fitToBudget(undefined, [], { ...options, maxTokens: 300, error });
    assert.ok(answer.tokens <= 300);
    assert.ok(answer.text.startsWith("ToolError (tool): crm/export failed: x"));
    assert.match(answer.text, /characters cut here/);
  });
});

describe("fitToBudget never exceeds the budget", () => {
  const nested = {
    meta: { source: "crm", fetchedAt: "2026-11-22T10:00:00Z" },
    contacts: rows.slice(0, 2000).map((row) => ({ ...row, notes: transcript.slice(0, 600) })),
  };
  const logs: LogEntry[] = Array.from({ length: 300 }, (_, i) => ({
    level: "info",
    message: `line ${i} ${"·".repeat(i % 50)}`,
  }));
  const values: Array<[string, unknown]> = [
    ["rows", rows],
    ["transcript", transcript],
    ["nested", nested],
    ["numbers", Array.from({ length: 50_000 }, (_, i) => i * 3)],
    ["wide object", Object.fromEntries(rows.slice(0, 3000).map((row) => [row.customer, row.amount]))],
  ];
  for (const [name, value] of values) {
    test(`${name}: every strategy, budgets from 1 to 3,000 tokens`, () => {
      for (const strategy of ["auto", "truncate", "sample", "summarize"] as const) {
        for (const maxTokens of [1, 150, 400, 3000]) {
          const answer = fitToBudget(value, logs, { maxTokens, strategy, tokenizer, reserveTokens: 0 });
          const label = `${name}/${strategy}/${maxTokens}`;
          assert.equal(answer.tokens, tokenizer.count(answer.text), label);
          assert.ok(answer.tokens <= maxTokens, `${label}: ${answer.tokens}`);
          assert.ok(answer.reduced, label);
          if (maxTokens >= 400) assert.ok(answer.text.includes("Note: the result"), label);
        }
      }
    });
  }

  test("a budget too small for any content says what was left out", () => {
    const answer = fitToBudget(rows, [], { maxTokens: 100, tokenizer });
    assert.match(
      answer.text,
      /^\[… the whole answer \(~[\d,]+ tokens\) was left out: it does not fit the 100-token output budget\. Return less, or pass a larger maxTokens …\]$/,
    );
    assert.equal(answer.reduced?.shown, "nothing");
  });

  test("reserveTokens leaves room for the caller's footer", () => {
    const answer = fitToBudget(rows, [], { ...options, reserveTokens: 50 });
    assert.ok(answer.tokens <= 1950);
  });
});

describe("renderValue", () => {
  test("strings as they are; short values on one line; long lists one item per line", () => {
    assert.equal(renderValue("plain text"), "plain text");
    assert.equal(renderValue({ a: [1, 2] }), '{"a":[1,2]}');
    assert.equal(
      renderValue(rows.slice(0, 5)),
      `[\n${rows
        .slice(0, 5)
        .map((row) => `  ${JSON.stringify(row)}`)
        .join(",\n")}\n]`,
    );
    const wide = { title: "x".repeat(90), items: rows.slice(0, 4) };
    assert.equal(
      renderValue(wide),
      `{\n  "title": ${JSON.stringify(wide.title)},\n  "items": [\n${wide.items.map((row) => `    ${JSON.stringify(row)}`).join(",\n")}\n  ]\n}`,
    );
  });
});
