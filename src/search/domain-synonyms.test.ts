import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { domainSynonyms } from "./domain-synonyms.ts";
import { stem } from "./tokenize.ts";

describe("domainSynonyms", () => {
  it("relates the words tools use interchangeably, both ways, by stem", () => {
    assert.ok(domainSynonyms(stem("save")).includes(stem("write")));
    assert.ok(domainSynonyms(stem("write")).includes(stem("save")));
    assert.ok(!domainSynonyms(stem("save")).includes(stem("save")), "not a synonym of itself");
  });

  it("spells out and abbreviates: a request's 'government data' finds Data.gov's tools", () => {
    assert.ok(domainSynonyms(stem("government")).includes("gov"));
    assert.ok(domainSynonyms("info").includes(stem("information")));
    assert.deepEqual(domainSynonyms("zzqx"), []);
  });
});
