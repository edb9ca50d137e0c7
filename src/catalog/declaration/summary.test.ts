import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { firstSentence } from "./summary.ts";

describe("firstSentence", () => {
  test("takes the first sentence of the first paragraph, on one line", () => {
    assert.equal(firstSentence("Read a file. Then more."), "Read a file.");
    assert.equal(firstSentence("Read a\nfile from disk\n\nDetails here."), "Read a file from disk");
    assert.equal(
      firstSentence("Notion | Create comment\nError Responses:\n400: Bad request"),
      "Notion | Create comment",
    );
    assert.equal(firstSentence("Lists items\n- first\n- second"), "Lists items");
    assert.equal(firstSentence("Use e.g. globs. Next"), "Use e.g. globs.");
    assert.equal(firstSentence("Version 1.2 is out! Yes"), "Version 1.2 is out!");
    assert.equal(firstSentence("No period at all"), "No period at all");
    assert.equal(firstSentence("  Ends here.  "), "Ends here.");
    assert.equal(firstSentence(""), "");
  });

  test("cuts long sentences at a word boundary", () => {
    assert.equal(firstSentence("alpha bravo charlie delta", 16), "alpha bravo…");
    assert.equal(firstSentence("supercalifragilistic", 10), "supercali…");
    assert.equal(firstSentence("alpha, bravo charlie", 13), "alpha, bravo…");
    assert.equal(firstSentence("alpha bravo", 11), "alpha bravo");
  });

  test("never keeps a line terminator", () => {
    assert.equal(firstSentence("a\u2028b\tc"), "a b c");
  });
});
