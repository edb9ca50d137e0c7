import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { MCP_SKILL_NAME, mcpSkillNames, slugSkillName } from "./mcp-skill-names.ts";

describe("mcpSkillNames", () => {
  test("turns ToolScript names into Agent Skills names", () => {
    assert.equal(slugSkillName("fetch_weather"), "fetch-weather");
    assert.equal(slugSkillName("fetchWeather"), "fetch-weather");
    assert.equal(slugSkillName("HTMLParser2"), "htmlparser2");
    assert.equal(slugSkillName("a__b--c_"), "a-b-c");
    assert.equal(slugSkillName("already-fine"), "already-fine");
    const long = `a${"Bc".repeat(31)}d`; // 64 characters, 31 camel humps
    assert.ok(slugSkillName(long).length <= 64);
    assert.match(slugSkillName(long), MCP_SKILL_NAME);
  });

  test("keeps names unique: the skill already named so keeps it, the others get a stable suffix", () => {
    const names = mcpSkillNames(["fetch-weather", "fetch_weather", "fetchWeather", "solo"]);
    assert.equal(names.get("fetch-weather"), "fetch-weather");
    assert.equal(names.get("solo"), "solo");
    const snake = names.get("fetch_weather");
    const camel = names.get("fetchWeather");
    assert.match(snake ?? "", /^fetch-weather-[0-9a-f]{6}$/);
    assert.match(camel ?? "", /^fetch-weather-[0-9a-f]{6}$/);
    assert.notEqual(snake, camel);
    // The same skill gets the same name whatever else is saved, and in any order.
    assert.equal(mcpSkillNames(["fetchWeather", "fetch_weather"]).get("fetch_weather"), snake);
    assert.equal(mcpSkillNames(["fetch_weather"]).get("fetch_weather"), "fetch-weather");
  });

  test("never publishes one name twice, even when a skill is named like another's suffixed name", () => {
    const suffixed = mcpSkillNames(["fetch_weather", "fetchWeather"]).get("fetch_weather") ?? "";
    const names = mcpSkillNames(["fetch_weather", "fetchWeather", suffixed]);
    assert.equal(names.get(suffixed), suffixed, "a skill's own valid name wins");
    assert.equal(names.has("fetch_weather"), false, "the skill it would collide with is left unpublished");
    const published = [...names.values()];
    assert.equal(new Set(published).size, published.length);
    for (const name of published) assert.match(name, MCP_SKILL_NAME);
  });
});
