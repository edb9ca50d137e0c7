/**
 * The entry of the bundle spliced into the prelude (scripts/build-sandbox-globals.ts):
 * installs the web globals a runtime lacks (the isolate tier has none of them;
 * Deno has its own) and makes the sandbox's error classes. Nothing from the
 * host is handed in but `random`, a function returning a copy of fresh bytes.
 */
import { atob, btoa } from "./base64.ts";
import { makeCrypto, type RandomSource } from "./crypto.ts";
import { SandboxDOMException } from "./dom-exception.ts";
import { makeSandboxErrors, type SandboxErrorClass, type SandboxErrorName } from "./errors.ts";
import { structuredClone } from "./structured-clone.ts";
import { SandboxTextDecoder, SandboxTextEncoder } from "./text-encoding.ts";
import { SandboxURL } from "./url.ts";
import { SandboxURLSearchParams } from "./url-search-params.ts";

export interface InstalledGlobals {
  errors: Record<SandboxErrorName, SandboxErrorClass>;
}

/** The web globals by name, in the order of catalog.ts. */
function webGlobals(random: () => RandomSource | undefined): Record<string, unknown> {
  return {
    URL: SandboxURL,
    URLSearchParams: SandboxURLSearchParams,
    TextEncoder: SandboxTextEncoder,
    TextDecoder: SandboxTextDecoder,
    atob,
    btoa,
    structuredClone,
    crypto: Object.freeze(makeCrypto(random)),
    DOMException: SandboxDOMException,
  };
}

/**
 * Installs the globals on `globalThis` with `define` (non-enumerable, like
 * built-ins): web globals only where the runtime has none, error classes always.
 */
export function installGlobals(
  define: (name: string, value: unknown) => void,
  random: () => RandomSource | undefined,
): InstalledGlobals {
  const web = webGlobals(random);
  for (const name of Object.keys(web)) {
    if (!(name in globalThis)) define(name, web[name]);
  }
  const errors = makeSandboxErrors();
  for (const name of Object.keys(errors) as SandboxErrorName[]) define(name, errors[name]);
  return { errors };
}
