import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LogCollector, truncationMarker } from "./log-collector.ts";

describe("LogCollector", () => {
  it("keeps entries in order under the cap", () => {
    const logs = new LogCollector(100);
    logs.add("log", "a");
    logs.add("warn", "b");
    assert.deepEqual(logs.entries, [
      { level: "log", message: "a" },
      { level: "warn", message: "b" },
    ]);
    assert.equal(logs.truncated, false);
  });

  it("cuts the entry that crosses the cap, adds a marker and ignores the rest", () => {
    const logs = new LogCollector(10);
    logs.add("log", "12345");
    logs.add("info", "abcdefgh");
    logs.add("log", "never");
    assert.deepEqual(logs.entries, [
      { level: "log", message: "12345" },
      { level: "info", message: "abc" },
      truncationMarker(10),
    ]);
    assert.equal(logs.truncated, true);
  });

  it("counts UTF-8 bytes and never splits a character", () => {
    const logs = new LogCollector(6);
    logs.add("log", "ééé");
    assert.deepEqual(logs.entries[0], { level: "log", message: "éé" });
  });

  it("sanitises what the sandbox sends", () => {
    const logs = new LogCollector(100);
    logs.add("shout", 42);
    assert.deepEqual(logs.entries, [{ level: "log", message: "42" }]);
  });
});
