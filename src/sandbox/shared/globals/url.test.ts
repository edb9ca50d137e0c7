import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SandboxURL } from "./url.ts";
import { SandboxURLSearchParams } from "./url-search-params.ts";

/** Inputs checked against Node's URL (a WHATWG URL implementation): [input, base?]. */
const CASES: [string, string?][] = [
  ["https://user:pa ss@Example.COM:443/a/./b/../c?q=1 2&r=é#frag ment"],
  ["http://example.com:8080"],
  ["HTTP://EXAMPLE.com/%7Efoo/"],
  ["https://example.com/a b/ü?x=\"y\"&'z'#`h`"],
  ["http://[::1]:3000/x"],
  ["http://[2001:DB8:0:0:0:0:0:1]/"],
  ["http://[::ffff:192.168.1.1]/"],
  ["http://0x7f.1/"],
  ["http://3232235777/"],
  ["http://bücher.example/straße"],
  ["http://example.com/%2e%2E/a/%2e/b"],
  ["http:\\\\example.com\\a\\b"],
  ["http:example.com/x"],
  ["mailto:someone@example.com?subject=hi there"],
  ["data:text/plain,hello world"],
  ["urn:isbn:0451450523"],
  ["foo://host/a/../b?c#d"],
  ["foo:/a/./b"],
  ["file:///C:/Windows/../x.txt"],
  ["file://localhost/etc/hosts"],
  ["file:///tmp/a b"],
  ["ws://example.com:80/chat"],
  ["wss://example.com:443/"],
  ["ftp://example.com:21/pub"],
  ["  https://example.com/trim\t\n  "],
  ["../c/d?e#f", "http://a.com/b/x/y"],
  ["//other.org/p", "https://a.com/b"],
  ["/abs", "https://a.com/b/c?q#f"],
  ["?only", "https://a.com/b/c?q#f"],
  ["#frag", "https://a.com/b/c?q#f"],
  ["", "https://a.com/b/c?q#f"],
  ["g;x?y#s", "http://a/b/c/d;p?q"],
  ["../../../g", "http://a/b/c/d;p?q"],
  [".", "http://a/b/c/d;p?q"],
  ["#x", "mailto:a@b"],
];

const INVALID: [string, string?][] = [
  ["not a url"],
  ["http://"],
  ["http://exa mple.com/"],
  ["http://example.com:99999/"],
  ["http://[::1/"],
  ["http://1.2.3.4.5/"],
  ["http://192.168.0.257/"],
  ["relative/only"],
  ["x", "mailto:a@b"],
  ["https://a:b@/"],
];

const PARTS = [
  "href",
  "origin",
  "protocol",
  "username",
  "password",
  "host",
  "hostname",
  "port",
  "pathname",
  "search",
  "hash",
] as const;

describe("sandbox URL against Node's URL", () => {
  for (const [input, base] of CASES) {
    it(`parses ${JSON.stringify(input)}${base ? ` against ${base}` : ""}`, () => {
      const expected = new URL(input, base);
      const actual = new SandboxURL(input, base);
      for (const part of PARTS) assert.equal(actual[part], expected[part], part);
      assert.deepEqual([...actual.searchParams], [...expected.searchParams]);
    });
  }

  it("refuses what Node refuses, with a TypeError", () => {
    for (const [input, base] of INVALID) {
      assert.throws(() => new URL(input, base), TypeError, `node: ${input}`);
      assert.throws(() => new SandboxURL(input, base), TypeError, input);
      assert.equal(SandboxURL.canParse(input, base), false);
    }
  });

  it("sets parts and keeps searchParams and search in step", () => {
    const expected = new URL("https://a.com/p?x=1#h");
    const actual = new SandboxURL("https://a.com/p?x=1#h");
    for (const url of [expected, actual]) {
      url.searchParams.append("y", "a b&c");
      url.searchParams.set("x", "2");
      url.hash = "top";
      url.pathname = "/new path";
      url.port = "8443";
      url.hostname = "B.org";
      url.username = "me";
    }
    assert.equal(actual.href, expected.href);
    actual.search = "?k=v";
    expected.search = "?k=v";
    assert.deepEqual([...actual.searchParams], [...expected.searchParams]);
    actual.searchParams.delete("k");
    expected.searchParams.delete("k");
    assert.equal(actual.href, expected.href);
  });
});

describe("sandbox URLSearchParams against Node's", () => {
  it("parses, edits, sorts and serializes the same way", () => {
    for (const init of ["?a=1&b=2&a=3", "q=%E2%9C%93+x&empty=&noeq&=v&bad=%zz", "", "a=b=c&%26=%3D"]) {
      const expected = new URLSearchParams(init);
      const actual = new SandboxURLSearchParams(init);
      assert.deepEqual([...actual], [...expected], init);
      assert.equal(actual.toString(), expected.toString());
      for (const params of [expected, actual]) {
        params.append("z", "~!*()' é");
        params.sort();
      }
      assert.equal(actual.toString(), expected.toString());
      assert.equal(actual.size, expected.size);
    }
    const fromRecord = new SandboxURLSearchParams({ a: "1", b: "x y" });
    assert.equal(fromRecord.toString(), new URLSearchParams({ a: "1", b: "x y" }).toString());
    const fromPairs = new SandboxURLSearchParams([
      ["a", "1"],
      ["a", "2"],
    ]);
    assert.deepEqual(fromPairs.getAll("a"), ["1", "2"]);
    assert.equal(fromPairs.has("a", "2"), true);
    assert.equal(fromPairs.get("none"), null);
  });
});
