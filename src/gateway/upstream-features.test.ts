import assert from "node:assert/strict";
import { test } from "node:test";
import { UpstreamManager } from "../upstream/manager.ts";
import { UpstreamFeatureGlue } from "./upstream-features.ts";

test("a server's resources list_changed makes every session list its templates again", () => {
  const glue = new UpstreamFeatureGlue(new UpstreamManager([]));
  for (const session of ["a", "b"]) {
    glue.routes(session).setTemplates("docs", [{ uriTemplate: "docs://{id}" }]);
    glue.routes(session).setTemplates("wiki", [{ uriTemplate: "wiki://{id}" }]);
  }
  glue.resourcesChanged("docs");
  for (const session of ["a", "b"]) {
    const routes = glue.routes(session);
    assert.equal(routes.hasTemplates("docs"), false, session);
    assert.equal(routes.templateMatches("wiki", "wiki://7"), true, session);
  }
});
