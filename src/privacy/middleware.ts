import { BridgeError } from "../bridge/errors.ts";
import type { ToolCallMiddleware } from "../bridge/types.ts";
import type { CatalogTool } from "../catalog/types.ts";
import type { TokenVault } from "./token-vault.ts";

export interface PrivacyMiddlewareOptions {
  /**
   * Tools left out of PII handling (e.g. `toolGlobMatcher(config.privacy.exclude)`):
   * their results reach the code as they are, and tokens in their arguments are
   * NOT turned back into real values, since an excluded tool that echoes its
   * input would otherwise hand the vault's contents to the model.
   */
  exclude?: ((tool: CatalogTool) => boolean) | undefined;
}

/**
 * PII handling around a tool call: tokens in the arguments become the real
 * values before `next` (so the upstream, and argument validation, see real
 * data); personal data in the result and in error messages becomes tokens
 * before the sandbox sees it.
 */
export function privacyMiddleware(
  vault: TokenVault,
  options: PrivacyMiddlewareOptions = {},
): ToolCallMiddleware {
  return async (call, next) => {
    if (options.exclude?.(call.tool)) return next(call);
    let result: unknown;
    try {
      result = await next({ ...call, args: vault.detokenizeValue(call.args) });
    } catch (error) {
      throw await tokenizeError(vault, error);
    }
    // Chunked with pauses: a large result does not hold up other sessions while it is scanned.
    return vault.tokenizeValueAsync(result);
  };
}

/** The same error with personal data in its message and data replaced by tokens. */
async function tokenizeError(vault: TokenVault, error: unknown): Promise<unknown> {
  if (error instanceof BridgeError) {
    return new BridgeError(
      error.name,
      error.code,
      await vault.tokenizeAsync(error.message),
      (await vault.tokenizeValueAsync(error.data)) as Record<string, unknown>,
      { cause: error },
    );
  }
  if (error instanceof Error) {
    // Keep the class (and so how the bridge classifies it); only the texts change.
    error.message = await vault.tokenizeAsync(error.message);
    const data = (error as { data?: unknown }).data;
    if (data !== null && typeof data === "object") Object.assign(data, await vault.tokenizeValueAsync(data));
    return error;
  }
  return typeof error === "string" ? vault.tokenizeAsync(error) : error;
}
