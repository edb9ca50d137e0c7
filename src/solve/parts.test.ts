import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { argumentsType } from "./arguments-type.ts";
import { extractModule } from "./extract-module.ts";
import { generatedSkillName, normalizeTask } from "./generated-name.ts";
import { taskSimilarity } from "./task-similarity.ts";

describe("argumentsType", () => {
  test("reads a TypeScript type off JSON values", () => {
    assert.equal(
      argumentsType({
        a: 1,
        name: "x",
        ok: true,
        none: null,
        list: [1, 2],
        mixed: [1, "a"],
        nested: { "two words": [] },
      }),
      '{ a: number; name: string; ok: boolean; none: null; list: number[]; mixed: Array<number | string>; nested: { "two words": unknown[] } }',
    );
    assert.equal(argumentsType({}), "Record<string, unknown>");
    assert.equal(
      argumentsType({ deep: { a: { b: { c: { d: 1 } } } } }),
      "{ deep: { a: { b: { c: Record<string, unknown> } } } }",
    );
  });
});

describe("extractModule", () => {
  test("takes the fenced block with the default export, else the first block, else bare code", () => {
    const answer =
      "Try:\n```bash\nnpm i\n```\n```ts\nconst x = 1;\n```\n```typescript\nexport default async () => 1;\n```";
    assert.equal(extractModule(answer), "export default async () => 1;");
    assert.equal(extractModule("```\nconst y = 2;\n```"), "const y = 2;");
    assert.equal(
      extractModule("export default async function () { return 3; }"),
      "export default async function () { return 3; }",
    );
    assert.equal(extractModule("I would rather not."), undefined);
    assert.equal(extractModule("```bash\nrm -rf /\n```"), undefined);
  });
});

describe("generatedSkillName", () => {
  test("a valid skill name from a few words of the task and a hash of all of it", () => {
    const name = generatedSkillName("Sum the order totals of every customer in the CSV file, by month");
    assert.match(name, /^gen-sum-order-totals-every-[0-9a-f]{6}$/);
    assert.ok(name.length <= 64);
    assert.equal(
      generatedSkillName("  SUM the order totals of every customer in the CSV file,   by month"),
      name,
    );
    assert.notEqual(
      generatedSkillName("Sum the order totals of every customer in the CSV file, by year"),
      name,
    );
    assert.match(generatedSkillName("日本語だけ"), /^gen-[0-9a-f]{6}$/);
    assert.match(
      generatedSkillName(`${"supercalifragilistic ".repeat(10)}`),
      /^gen-(supercalif-){4}[0-9a-f]{6}$/,
    );
    assert.equal(normalizeTask(" A  b\tC "), "a b c");
  });
});

describe("taskSimilarity", () => {
  test("the share of the task's words the candidate covers; both ways for two tasks", () => {
    assert.equal(taskSimilarity("echo a message back", "echo: Echo the message back."), 1);
    assert.ok(
      taskSimilarity(
        "add two numbers, then double the sum",
        "add: Add two numbers and return structured content",
      ) < 0.8,
    );
    const stored = "Add two numbers with the calculator, then double the sum";
    assert.equal(
      taskSimilarity("double the sum of two numbers added with the calculator", stored, { bothWays: true }),
      1,
    );
    assert.ok(
      taskSimilarity("Add two numbers, then triple the sum", stored) >= 0.75,
      "one way, one word apart",
    );
    assert.ok(taskSimilarity("Add two numbers, then triple the sum", stored, { bothWays: true }) < 0.8);
    // One word apart in five: not the same task at the default 0.85.
    assert.equal(
      taskSimilarity("Add two numbers then subtract one", "Add two numbers and add one hundred", {
        bothWays: true,
      }),
      0.8,
    );
    // Porter2 stems "added" "ad" and "add" "add": one letter apart at the end counts as the same word.
    assert.equal(taskSimilarity("numbers added", "add numbers", { bothWays: true }), 1);
    assert.equal(taskSimilarity("the of and", "anything"), 0);
  });
});
