import assert from "node:assert/strict";
import { test } from "node:test";
import { cliClientRequests } from "./client-requests.ts";

test("toolscript run: roots are the working folder, input requests are declined, sampling is not offered", async () => {
  const hooks = cliClientRequests("/srv/my project");
  assert.equal(hooks.sample, undefined);
  const signal = new AbortController().signal;
  assert.deepEqual(await hooks.listRoots?.("files", signal), {
    roots: [{ uri: "file:///srv/my%20project", name: "my project" }],
  });
  assert.deepEqual(await hooks.elicit?.("files", { message: "Delete it?" }, signal), { action: "decline" });
});
