import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { runOne, runPython } from "./driver-harness.fixture.ts";

/** The Python driver's logs, skills and the state one run leaves (CPython with a fake host: driver-harness.fixture.ts). */

describe("python driver: logs", () => {
  test("print and sys.stdout are log, stderr and logging are error, one message per print", () => {
    const record = runOne({
      code: [
        "import sys, logging",
        "print('hello', 42)",
        "print('two\\nlines')",
        "sys.stdout.write('part ')",
        "sys.stdout.write('one\\n')",
        "print('oops', file=sys.stderr)",
        "logging.warning('careful')",
        "sys.stdout.write('unterminated')",
      ].join("\n"),
    });
    assert.deepEqual(record.logs, [
      { level: "log", message: "hello 42" },
      { level: "log", message: "two\nlines" },
      { level: "log", message: "part one" },
      { level: "error", message: "oops" },
      { level: "error", message: "WARNING:root:careful" },
      { level: "log", message: "unterminated" },
    ]);
  });

  test("messages are cut to the log budget and later ones dropped", () => {
    const record = runOne({
      code: "print('x' * 10_000_000)\nprint('after')\n'done'",
      limits: { maxLogBytes: 2000 },
    });
    assert.deepEqual(record.outcome, { result: "done" });
    assert.equal(record.logs.length, 1);
    const message = record.logs[0]!.message;
    assert.ok(Buffer.byteLength(message) <= 2000, `${Buffer.byteLength(message)} bytes`);
    assert.match(message, /^x+… \(\d+ more characters\)$/);
  });
});

describe("python driver: skills and state", () => {
  const skills = {
    stats: "def mean(values):\n    return sum(values) / len(values)\n",
    adder:
      "async def add(a, b):\n    return await tools.everything.get_sum(a=a, b=b)\n\ndef broken():\n    raise ValueError('bad')\n",
  };

  test("skills import by name, see tools, and keep their frames in stacks", () => {
    const [ok, broken, unknown, none] = runPython([
      {
        code: "from skills.stats import mean\nfrom skills import adder\n[mean([1, 2, 3]), await adder.add(2, 3)]",
        skills,
      },
      { code: "from skills.adder import broken\nbroken()", skills },
      { code: "import skills.stat", skills },
      { code: "import skills.stat" },
    ]);
    assert.deepEqual(ok!.outcome, { result: [2, 5] });
    const error = broken!.outcome.error!;
    assert.equal(error.line, 5);
    assert.match(error.stack!, /File "agent\.py", line 2[\s\S]*File "skills\/adder\.py", line 5, in broken/);
    assert.equal(unknown!.outcome.error!.name, "ModuleNotFoundError");
    assert.equal(
      unknown!.outcome.error!.message,
      "No skill named 'skills.stat'. Saved Python skills: adder, stats.",
    );
    assert.match(none!.outcome.error!.message, /no Python skills are saved/);
  });

  test("nothing of one run reaches the next in the same interpreter", () => {
    const [first, second] = runPython([
      {
        code: [
          "import builtins, sys",
          "import skills.stats",
          "leftover = 1",
          "builtins.planted = 2",
          "builtins.print = None",
          "sys.path.insert(0, '/planted')",
          "sys.stdout = None",
          "import logging, warnings",
          "logging.basicConfig(level=logging.INFO)",
          "warnings.simplefilter('ignore')",
          "'first'",
        ].join("\n"),
        skills,
      },
      {
        code: [
          "import sys",
          "found = [name for name in ('leftover', 'planted') if name in globals() or hasattr(__builtins__, name)]",
          "print('printing works')",
          "import logging, warnings",
          "logging.info('not at the default level')",
          "warnings.warn('shown again')",
          "try:",
          "    import skills.stats",
          "except ModuleNotFoundError as error:",
          "    missing = str(error)",
          "[found, '/planted' in sys.path, missing]",
        ].join("\n"),
      },
    ]);
    assert.deepEqual(first!.outcome, { result: "first" });
    assert.deepEqual(second!.outcome.result, [
      [],
      false,
      "No skill named 'skills.stats': no Python skills are saved (save_skill with language \"python\").",
    ]);
    assert.deepEqual(second!.logs, [
      { level: "log", message: "printing works" },
      { level: "error", message: "agent.py:6: UserWarning: shown again\n  warnings.warn('shown again')" },
    ]);
  });
});
