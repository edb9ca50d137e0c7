import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { englishGlossTerms, englishGlossWords, segmentHan } from "./chinese-glosses.ts";
import { documentFields, FIELDS } from "./fields.ts";
import { LexicalSearchIndex } from "./lexical-index.ts";
import { analyzeQuery, GLOSS_WEIGHT } from "./query.ts";
import { stem } from "./tokenize.ts";
import { toolDoc } from "./tool-doc.fixture.ts";
import type { SearchDocument } from "./types.ts";

const doc = (name: string, description: string, params: SearchDocument["params"] = []) =>
  toolDoc(name, description, { params });

const ENGLISH_TOOLS = [
  doc("get_forecast", "Get the weather forecast for a city"),
  doc("search_repositories", "Search GitHub repositories by keyword"),
  doc("create_event", "Create an event in a calendar"),
  doc("read_file", "Read the contents of a file"),
  doc("send_email", "Send an email message to a recipient"),
];
const WEIBO = doc("weibo_hot", "获取微博热搜榜，包含时事热点、社会现象、娱乐新闻");

describe("segmentHan", () => {
  it("takes the longest dictionary word at each position", () => {
    assert.deepEqual(segmentHan("获取微博热点新闻"), ["获取", "微博", "热点", "新闻"]);
    assert.deepEqual(segmentHan("查询天气预报"), ["查询", "天气", "预报"]);
    assert.deepEqual(segmentHan("数据库"), ["数据库"]);
  });

  it("falls back to single characters, astral ones included", () => {
    assert.deepEqual(segmentHan("搜"), ["搜"]);
    assert.deepEqual(segmentHan("𠀀𠀀"), ["𠀀", "𠀀"]);
  });
});

describe("englishGlossTerms", () => {
  it("glosses Chinese words with stemmed English words, in text order", () => {
    const glossed = englishGlossTerms("查询天气预报");
    assert.ok(glossed.includes(stem("weather")), glossed.join(" "));
    assert.ok(glossed.indexOf(stem("weather")) < glossed.indexOf(stem("forecast")), glossed.join(" "));
    assert.ok(englishGlossTerms("获取微博热点新闻").includes(stem("microblog")));
  });

  it("leaves out function words and returns nothing for text without Han", () => {
    assert.deepEqual(englishGlossTerms("的了是"), []);
    assert.deepEqual(englishGlossTerms("Get the weather forecast for a city"), []);
    assert.deepEqual(englishGlossTerms("café, 東京 in kana: とうきょう"), englishGlossTerms("東京"));
    assert.deepEqual(englishGlossTerms(""), []);
  });

  it("gives the glosses as English words too, for the word vectors", () => {
    // Words, not stems: the vectors know "city" and "image", not "citi" and "imag".
    assert.deepEqual(englishGlossWords("城市图片"), ["city", "town", "image", "picture"]);
    assert.deepEqual(englishGlossTerms("城市图片"), ["citi", "town", "imag", "pictur"]);
    assert.deepEqual(englishGlossWords("plain English"), []);
  });
});

describe("translation field and query terms", () => {
  it("indexes the glosses of name, description and parameter descriptions as their own field", () => {
    const at = FIELDS.findIndex((field) => field.name === "translation");
    assert.ok(at >= 0);
    const fields = documentFields(doc("weather", "查询天气", [{ name: "city", description: "城市名称" }]));
    assert.ok(fields[at]?.includes(stem("weather")));
    assert.ok(fields[at]?.includes(stem("city")));
    assert.deepEqual(documentFields(ENGLISH_TOOLS[0] as SearchDocument)[at], []);
  });

  it("adds a Chinese query's glosses below the words the query says itself", () => {
    const analyzed = analyzeQuery("weather 天气预报", undefined, false);
    const entry = (word: string) => analyzed.find((term) => term.term === stem(word));
    assert.equal(entry("weather")?.weight, 1);
    assert.deepEqual(entry("forecast"), {
      term: stem("forecast"),
      weight: GLOSS_WEIGHT,
      source: stem("forecast"),
    });
    assert.ok(
      analyzed.some((term) => term.term === "天气"),
      "the Chinese bigrams stay",
    );
  });
});

describe("LexicalSearchIndex across Chinese and English", () => {
  const index = new LexicalSearchIndex();
  index.add([...ENGLISH_TOOLS, WEIBO]);
  const top = (query: string) => index.search(query, { limit: 3 }).map((hit) => hit.id);

  it("finds a tool described in Chinese with an English request", () => {
    assert.equal(top("today's trending topics and entertainment news")[0], "s/weibo_hot");
  });

  it("finds a tool described in English with a Chinese request", () => {
    assert.equal(top("查询明天的天气预报")[0], "s/get_forecast");
    assert.equal(top("发送电子邮件")[0], "s/send_email");
  });

  it("still matches Chinese text with a Chinese request", () => {
    assert.equal(top("微博热搜")[0], "s/weibo_hot");
  });
});
