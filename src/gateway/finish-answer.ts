import type { ToolscriptSettings } from "../config/settings.ts";
import type { ActivityFeed } from "../ops/activity.ts";
import { accountExecution, type CallLedger } from "../output/accounting.ts";
import { formatTokenTotals } from "../output/session-totals.ts";
import type { Tokenizer } from "../output/tokenizer.ts";
import { FOOTER_RESERVE_TOKENS, shapeAnswer } from "./answer.ts";
import type { Logger } from "./logger.ts";
import type { SessionStates } from "./session-state.ts";
import { storeFailure } from "./store-failure.ts";
import type { ExecuteRequest, ExecuteResponse } from "./types.ts";

/** What turning a run into its answer needs from the gateway. */
export interface AnswerDeps {
  settings: ToolscriptSettings;
  states: SessionStates;
  tokenizer: Tokenizer;
  activity: ActivityFeed;
  logger: Logger;
  /** Where the store is (named in the error when tokens cannot be committed). */
  storeLocation: () => string | undefined;
}

/** Tokenizes personal data, fits the answer to its budget, and counts tokens. */
export async function finishAnswer(
  deps: AnswerDeps,
  response: ExecuteResponse,
  request: ExecuteRequest,
  ledger: CallLedger,
): Promise<ExecuteResponse> {
  const { output, privacy } = deps.settings;
  const session = response.session;
  const vault = privacy.pii ? deps.states.vault(session) : undefined;
  const replacedBefore = vault?.replacedByKind();
  const options = {
    maxTokens: Math.min(request.maxTokens ?? output.maxTokens, output.maxTokensLimit),
    maxTokensLimit: output.maxTokensLimit,
    strategy: request.strategy ?? output.strategy,
    tokenizer: deps.tokenizer,
    saveFullValue: (value: unknown) => deps.states.saveFullValue(session, value),
  };
  let shaped: Awaited<ReturnType<typeof shapeAnswer>>;
  try {
    shaped = await shapeAnswer(response, { ...options, vault });
  } catch (error) {
    if (!vault) throw error;
    // Its tokens could not be committed (the store failed): nothing of what the program returned leaves.
    const failed = {
      ...response,
      result: undefined,
      logs: [],
      error: storeFailure(error, deps.storeLocation()),
    };
    shaped = await shapeAnswer(failed, options);
  }
  const tokens = accountExecution({
    ledger,
    returnedTokens: shaped.answer.tokens + FOOTER_RESERVE_TOKENS,
    code: request.code,
    tokenizer: deps.tokenizer,
  });
  deps.activity.emit({
    type: "tokens",
    session,
    client: request.client ?? null,
    time: Date.now(),
    tokens,
    piiTokens: vault && replacedBefore ? vault.replacedSince(replacedBefore) : {},
  });
  const totals = deps.states.addTokens(session, tokens);
  deps.logger.info(formatTokenTotals(`session ${session}`, totals.totals));
  return { ...shaped, tokens };
}
