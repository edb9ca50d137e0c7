import { realpath } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { ProcessSandboxError } from "./errors.ts";
import { isExecutable } from "./executable.ts";

/**
 * Resolves `specifier` (a package's `package.json`) as `require.resolve` does from
 * the file `from`, throwing when the package is not installed. Tests pass their own.
 */
export type PackageResolver = (specifier: string, from: string) => string;

/** The npm package that ships Deno: an optional dependency, absent after `npm install --omit=optional`. */
export const DENO_PACKAGE = "deno";
export const INSTALL_DENO = "npm install deno";

const nodeResolver: PackageResolver = (specifier, from) => createRequire(from).resolve(specifier);

const EXECUTABLE = process.platform === "win32" ? "deno.exe" : "deno";
const WHO_NEEDS_IT =
  'The process sandbox tier (sandbox.runtime: "process") and Python programs run in Deno; TypeScript programs in sandbox.runtime: "isolate" do not need it';

/** The package holding this platform's binary, which `deno`'s install script copies into its own folder. */
function platformPackage(): string | undefined {
  const cpu = process.arch;
  if (cpu !== "x64" && cpu !== "arm64") return undefined;
  if (process.platform === "linux") return `@deno/linux-${cpu}-glibc`;
  if (process.platform === "darwin" || process.platform === "win32")
    return `@deno/${process.platform}-${cpu}`;
  return undefined;
}

/**
 * The Deno executable: `explicit` when given, else the binary of the `deno` npm
 * package (next to its package.json, or in its platform package when its install
 * script did not run, as with `--ignore-scripts`). Throws `process.deno_missing`
 * naming the package and how to install it.
 */
export async function resolveDeno(
  explicit: string | undefined,
  resolvePackage: PackageResolver = nodeResolver,
): Promise<string> {
  if (explicit !== undefined) {
    if (await isExecutable(explicit)) return realpath(explicit);
    throw new ProcessSandboxError(
      "process.deno_missing",
      `The Deno executable ${explicit} is missing or not executable. Fix the path, or leave it unset to use the npm package "${DENO_PACKAGE}" (${INSTALL_DENO}).`,
      { data: { path: explicit } },
    );
  }
  let packageJson: string;
  try {
    packageJson = resolvePackage(`${DENO_PACKAGE}/package.json`, import.meta.url);
  } catch (cause) {
    throw new ProcessSandboxError(
      "process.deno_missing",
      `Deno is not installed: the npm package "${DENO_PACKAGE}", an optional dependency of toolscript, is missing (installs with --omit=optional skip it). ${WHO_NEEDS_IT}. Install it with \`${INSTALL_DENO}\` where toolscript is installed.`,
      { cause, data: { package: DENO_PACKAGE, install: INSTALL_DENO } },
    );
  }
  const candidates = [join(dirname(packageJson), EXECUTABLE)];
  const platform = platformPackage();
  try {
    if (platform)
      candidates.push(join(dirname(resolvePackage(`${platform}/package.json`, packageJson)), EXECUTABLE));
  } catch {
    // Not installed for this platform: the message below lists what was looked for.
  }
  for (const candidate of candidates) if (await isExecutable(candidate)) return realpath(candidate);
  throw new ProcessSandboxError(
    "process.deno_missing",
    `The npm package "${DENO_PACKAGE}" is installed but holds no Deno binary for ${process.platform}-${process.arch} (looked for ${candidates.join(", ")}${platform && candidates.length === 1 ? ` and the package ${platform}` : ""}). ${WHO_NEEDS_IT}. Reinstall it with \`${INSTALL_DENO}\`.`,
    { data: { package: DENO_PACKAGE, install: INSTALL_DENO, paths: candidates } },
  );
}
