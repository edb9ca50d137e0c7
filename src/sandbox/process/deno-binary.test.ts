import assert from "node:assert/strict";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../../../test/helpers/servers.ts";
import { type PackageResolver, resolveDeno } from "./deno-binary.ts";
import { ProcessSandboxError } from "./errors.ts";

/** A resolver that knows only `packages` (specifier -> package.json path), like Node without the rest installed. */
function resolverOf(packages: Record<string, string>): PackageResolver {
  return (specifier) => {
    const found = packages[specifier];
    if (found !== undefined) return found;
    throw Object.assign(new Error(`Cannot find module '${specifier}'`), { code: "MODULE_NOT_FOUND" });
  };
}

/** A package folder with a package.json and, when asked, an executable `deno` in it. */
function fakePackage(root: string, name: string, withBinary: boolean): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name }));
  if (withBinary) {
    writeFileSync(join(dir, "deno"), "#!/bin/sh\n");
    chmodSync(join(dir, "deno"), 0o755);
  }
  return join(dir, "package.json");
}

async function refusal(run: () => Promise<unknown>): Promise<ProcessSandboxError> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof ProcessSandboxError, String(error));
    return error;
  }
  assert.fail("Deno was found");
}

const PLATFORM_PACKAGE = `@deno/linux-${process.arch}-glibc/package.json`;

describe("resolveDeno", () => {
  it("finds the binary of the installed npm package here (npm ci installs the optional dependency)", async () => {
    assert.match(await resolveDeno(undefined), /deno$/);
  });

  it("names the npm package, that it is optional, and how to install it, when it is not installed", async () => {
    const error = await refusal(() => resolveDeno(undefined, resolverOf({})));
    assert.equal(error.code, "process.deno_missing");
    assert.match(error.message, /npm package "deno"/);
    assert.match(error.message, /optional dependency/);
    assert.match(error.message, /`npm install deno`/);
    assert.match(error.message, /Python/);
    assert.match(error.message, /sandbox.runtime: "isolate" do not need it/);
    assert.deepEqual(error.data, { package: "deno", install: "npm install deno" });
    assert.equal((error.cause as { code?: string }).code, "MODULE_NOT_FOUND");
  });

  it("uses the platform package's binary when the install script did not copy it (--ignore-scripts)", {
    skip: process.platform !== "linux",
  }, async () => {
    const dir = tempDir("deno-binary");
    try {
      const deno = fakePackage(dir.path, "deno", false);
      const platform = fakePackage(dir.path, "platform", true);
      const found = await resolveDeno(
        undefined,
        resolverOf({ "deno/package.json": deno, [PLATFORM_PACKAGE]: platform }),
      );
      assert.equal(found, join(dir.path, "platform", "deno"));
    } finally {
      dir.remove();
    }
  });

  it("prefers the binary next to the package's package.json", async () => {
    const dir = tempDir("deno-binary");
    try {
      const deno = fakePackage(dir.path, "deno", true);
      const platform = fakePackage(dir.path, "platform", true);
      const found = await resolveDeno(
        undefined,
        resolverOf({ "deno/package.json": deno, [PLATFORM_PACKAGE]: platform }),
      );
      assert.equal(found, join(dir.path, "deno", "deno"));
    } finally {
      dir.remove();
    }
  });

  it("says where it looked when the package is installed without a binary", async () => {
    const dir = tempDir("deno-binary");
    try {
      const deno = fakePackage(dir.path, "deno", false);
      const error = await refusal(() => resolveDeno(undefined, resolverOf({ "deno/package.json": deno })));
      assert.equal(error.code, "process.deno_missing");
      assert.match(error.message, /installed but holds no Deno binary/);
      assert.ok(error.message.includes(join(dir.path, "deno", "deno")), error.message);
      assert.match(error.message, /`npm install deno`/);
    } finally {
      dir.remove();
    }
  });

  it("names an explicit path that is not executable", async () => {
    const error = await refusal(() => resolveDeno("/nonexistent/deno", resolverOf({})));
    assert.equal(error.code, "process.deno_missing");
    assert.match(error.message, /\/nonexistent\/deno is missing or not executable/);
  });
});
