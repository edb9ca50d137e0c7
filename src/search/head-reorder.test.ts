import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HeadReorder, type HeadWords } from "./head-reorder.ts";
import { RERANK_DEPTH } from "./likelihood-rerank.ts";
import { RequestLikelihood } from "./request-likelihood.ts";
import { RequestPairs } from "./request-pairs.ts";
import { toolDoc } from "./tool-doc.fixture.ts";

const archive = toolDoc("archive_card", "Archive a card, hidden from the board");
const remove = toolDoc("delete_card", "Delete a card for good");

/** `head` over the two tools (slot 0 archive, 1 delete), scored 0.5 and 0.6. */
function reordered(head: HeadReorder, request: string): [number, number][] {
  const words: HeadWords[] = [head.words(archive), head.words(remove)];
  return head.reorder(request, [1, 0], [0.6, 0.5], 10, (slot) => words[slot]);
}

describe("head reorder", () => {
  it("leaves a ranking as it is, and as deep as asked, when nothing reorders", () => {
    const head = new HeadReorder(undefined, undefined, { pathless: true });
    assert.equal(head.depth(5), 5);
    assert.deepEqual(reordered(head, "stash the card"), [
      [1, 0.6],
      [0, 0.5],
    ]);
  });

  it("takes the head's depth and lets the pair weights move a tool up", () => {
    const head = new HeadReorder(undefined, new RequestPairs(["stash\tarchiv:0.5"]), { pathless: true });
    assert.equal(head.depth(5), RERANK_DEPTH);
    const [first, second] = reordered(head, "stash the card");
    assert.equal(first?.[0], 0, "the archive tool comes first");
    assert.ok(Math.abs((first?.[1] ?? 0) - (0.5 + 0.5 / 2)) < 1e-9, `${first?.[1]}`);
    assert.deepEqual(second, [1, 0.6]);
  });

  it("reads the likelihood from the request without its file paths, when asked to", () => {
    // "archiv" in a folder's name would explain the request as well as the need itself.
    const likelihood = new RequestLikelihood([
      "archiv\t0.01\t0.001\tarchiv:0.9",
      "card\t0.02\t0.01\tcard:0.5",
      "remov\t0.01\t0.001\tdelet:0.9",
    ]);
    const request = "remove the card listed in /srv/archive/cards.txt";
    const pathless = reordered(new HeadReorder(likelihood, undefined, { pathless: true }), request);
    const whole = reordered(new HeadReorder(likelihood, undefined, { pathless: false }), request);
    assert.equal(pathless[0]?.[0], 1, "the delete tool stays first");
    assert.ok((whole[1]?.[1] ?? 0) > (pathless[1]?.[1] ?? 0), "the path's word lifts the archive tool");
  });
});
