import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HeadReorder, type HeadWords } from "./head-reorder.ts";
import { RERANK_DEPTH } from "./likelihood-rerank.ts";
import { RequestLikelihood } from "./request-likelihood.ts";
import { RequestPairs } from "./request-pairs.ts";
import { SERVER_FOCUS } from "./server-focus.ts";
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
    const head = new HeadReorder(undefined, undefined, { pathless: true, serverFocus: false });
    assert.equal(head.depth(5), 5);
    assert.deepEqual(reordered(head, "stash the card"), [
      [1, 0.6],
      [0, 0.5],
    ]);
  });

  it("takes the head's depth and lets the pair weights move a tool up", () => {
    const head = new HeadReorder(undefined, new RequestPairs(["stash\tarchiv:0.5"]), {
      pathless: true,
      serverFocus: false,
    });
    assert.equal(head.depth(5), RERANK_DEPTH);
    const [first, second] = reordered(head, "stash the card");
    assert.equal(first?.[0], 0, "the archive tool comes first");
    assert.ok(Math.abs((first?.[1] ?? 0) - (0.5 + 0.5 / 2)) < 1e-9, `${first?.[1]}`);
    assert.deepEqual(second, [1, 0.6]);
  });

  it("focuses on the servers with the head's best tools, when asked to", () => {
    // Slot 0 (0.9) and 1 (0.5) are of the board's server, slot 2 (0.55) of another, 3 (0.52) of none.
    const docs = [
      toolDoc("delete_card", "Delete a card", { server: "board" }),
      toolDoc("archive_card", "Archive a card", { server: "board" }),
      toolDoc("delete_note", "Delete a note", { server: "notes" }),
      { ...toolDoc("remove_item", "Remove an item"), server: undefined },
    ];
    const order = (serverFocus: boolean) => {
      const head = new HeadReorder(undefined, undefined, { pathless: true, serverFocus });
      const words = docs.map((doc) => head.words(doc));
      return head.reorder("drop the card", [0, 2, 3, 1], [0.9, 0.55, 0.52, 0.5], 10, (slot) => words[slot]);
    };
    assert.deepEqual(
      order(false).map(([slot]) => slot),
      [0, 2, 3, 1],
    );
    const focused = order(true);
    assert.deepEqual(
      focused.map(([slot]) => slot),
      [0, 1, 2, 3],
      "the board's second tool passes the other server's and the serverless one",
    );
    assert.equal(focused[0]?.[1], 0.9, "the best tool keeps its score");
    assert.ok(Math.abs((focused[2]?.[1] ?? 0) - (0.55 - SERVER_FOCUS * 0.35)) < 1e-9, `${focused[2]?.[1]}`);
    assert.equal(
      new HeadReorder(undefined, undefined, { pathless: true, serverFocus: true }).depth(5),
      RERANK_DEPTH,
    );
  });

  it("reads the likelihood from the request without its file paths, when asked to", () => {
    // "archiv" in a folder's name would explain the request as well as the need itself.
    const likelihood = new RequestLikelihood([
      "archiv\t0.01\t0.001\tarchiv:0.9",
      "card\t0.02\t0.01\tcard:0.5",
      "remov\t0.01\t0.001\tdelet:0.9",
    ]);
    const request = "remove the card listed in /srv/archive/cards.txt";
    const pathless = reordered(
      new HeadReorder(likelihood, undefined, { pathless: true, serverFocus: false }),
      request,
    );
    const whole = reordered(
      new HeadReorder(likelihood, undefined, { pathless: false, serverFocus: false }),
      request,
    );
    assert.equal(pathless[0]?.[0], 1, "the delete tool stays first");
    assert.ok((whole[1]?.[1] ?? 0) > (pathless[1]?.[1] ?? 0), "the path's word lifts the archive tool");
  });
});
