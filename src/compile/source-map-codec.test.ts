import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { transformSync } from "esbuild";
import { decodeMappings, encodeMappings } from "./source-map-codec.ts";

describe("source map codec", () => {
  it("decodes known mappings to absolute segments", () => {
    assert.deepEqual(decodeMappings("AAAA,QAAM;AACN,GAAG,K"), [
      [
        [0, 0, 0, 0],
        [8, 0, 0, 6],
      ],
      [[0, 0, 1, 0], [3, 0, 1, 3], [8]],
    ]);
  });

  it("round-trips esbuild's mappings, including large and negative deltas", () => {
    const source = Array.from({ length: 300 }, (_, i) => `const v${i}: number = ${i} * ${i};`).join("\n");
    const { map } = transformSync(`${source}\nconsole.log(v0, v299);`, {
      loader: "ts",
      sourcemap: "external",
    });
    const { mappings } = JSON.parse(map) as { mappings: string };
    const decoded = decodeMappings(mappings);
    assert.ok(decoded.length > 300);
    assert.equal(encodeMappings(decoded), mappings);
  });

  it("rejects invalid characters", () => {
    assert.throws(() => decodeMappings("A!"), /invalid base64 VLQ/);
  });
});
