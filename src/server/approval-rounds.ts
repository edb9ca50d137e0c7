import { randomBytes } from "node:crypto";
import {
  acceptedContent,
  type CallToolResult,
  type InputRequiredResult,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { ApprovalRequest, Approver } from "../policy/approval.ts";
import { APPROVAL_SCHEMA, approvalMessage } from "./elicit-approval.ts";

/** How long a paused execution waits for the client to send the approval back. */
export const APPROVAL_ROUND_TIMEOUT_MS = 10 * 60_000;
/** Paused executions held at once, all clients together; beyond, approval-gated calls are refused. */
export const MAX_PAUSED_EXECUTIONS = 256;

type Run = (approver: Approver, signal: AbortSignal) => Promise<CallToolResult>;

interface Ask {
  key: string;
  request: ApprovalRequest;
  resolve: (approved: boolean) => void;
  sent: boolean;
}

interface Paused {
  readonly id: string;
  readonly client: string | null;
  readonly controller: AbortController;
  asks: Ask[];
  done?: CallToolResult;
  /** Wakes the request waiting on this execution (an approval asked, or the end). */
  wake?: () => void;
  /** A request is waiting on it now (the first call, or a retry). */
  attached: boolean;
  timer?: NodeJS.Timeout;
  seq: number;
}

/**
 * Approvals over the multi round-trip flow of protocol 2026-07-28: when the
 * program of an `execute_code` call needs an approval, the call answers an
 * input-required result (an elicitation per pending approval, and a
 * `requestState` naming the paused execution); the client asks the user and
 * retries the call with the answers, which resumes the program where it waited.
 *
 * The execution outlives the HTTP request that started it, so it is kept here,
 * per gateway process, under an unguessable id that only the client that
 * started it may resume (the id is the capability: 144 random bits).
 */
export class ApprovalRounds {
  readonly #paused = new Map<string, Paused>();

  get size(): number {
    return this.#paused.size;
  }

  /** Starts an execution; answers its result, or an input-required result when it waits for approvals. */
  async start(
    run: Run,
    ctx: ServerContext,
    client: string | null,
  ): Promise<CallToolResult | InputRequiredResult> {
    const paused: Paused = {
      id: randomBytes(18).toString("base64url"),
      client,
      controller: new AbortController(),
      asks: [],
      attached: true,
      seq: 0,
    };
    const full = this.#paused.size >= MAX_PAUSED_EXECUTIONS;
    const approver: Approver = (request, signal) =>
      new Promise<boolean>((resolve) => {
        // No room to pause one more execution: refused like a client that cannot approve.
        if (full) return resolve(false);
        const ask: Ask = { key: `approve-${++paused.seq}`, request, resolve, sent: false };
        paused.asks.push(ask);
        signal.addEventListener("abort", () => resolve(false), { once: true });
        paused.wake?.();
      });
    run(approver, paused.controller.signal)
      .catch(
        (error: unknown): CallToolResult => ({
          content: [
            {
              type: "text",
              text: `execution failed: ${error instanceof Error ? error.message : String(error)}`,
            },
          ],
          isError: true,
        }),
      )
      .then((result) => {
        paused.done = result;
        paused.wake?.();
        // Finished while nobody waits (the client never came back): nothing left to hold.
        if (!paused.attached) this.#drop(paused);
      });
    return this.#wait(paused, ctx);
  }

  /** A retried call carrying `requestState`: the answers go to the paused program, which goes on. */
  async resume(
    state: string,
    ctx: ServerContext,
    client: string | null,
  ): Promise<CallToolResult | InputRequiredResult> {
    const paused = this.#paused.get(state);
    // Another client's execution is as unknown as one that never existed.
    if (!paused || paused.client !== client || paused.attached)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        "Invalid or expired requestState: no paused execution by that id (it ended, expired, or is being resumed)",
        { reason: "invalid_request_state" },
      );
    clearTimeout(paused.timer);
    paused.attached = true;
    const responses = ctx.mcpReq.inputResponses;
    for (const ask of paused.asks.filter((candidate) => candidate.sent)) {
      const present = responses !== undefined && Object.hasOwn(responses, ask.key);
      if (!present) {
        // No answer for it: asked again in the next round.
        ask.sent = false;
        continue;
      }
      const content = acceptedContent<{ approve?: unknown }>(responses, ask.key);
      paused.asks.splice(paused.asks.indexOf(ask), 1);
      ask.resolve(content !== undefined && content.approve !== false);
    }
    return this.#wait(paused, ctx);
  }

  /** Waits for the end or for approvals to ask, while this request is attached. */
  async #wait(paused: Paused, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> {
    // The client cancelling the call it is waiting on cancels the execution.
    const cancel = () => paused.controller.abort();
    ctx.mcpReq.signal.addEventListener("abort", cancel, { once: true });
    try {
      for (;;) {
        if (paused.done) {
          this.#drop(paused);
          return paused.done;
        }
        const unsent = paused.asks.filter((ask) => !ask.sent);
        if (unsent.length > 0) {
          for (const ask of unsent) ask.sent = true;
          this.#park(paused);
          return inputRequired({
            inputRequests: Object.fromEntries(
              paused.asks.map((ask) => [
                ask.key,
                inputRequired.elicit({
                  mode: "form",
                  message: approvalMessage(ask.request),
                  requestedSchema: APPROVAL_SCHEMA,
                }),
              ]),
            ),
            requestState: paused.id,
          });
        }
        await new Promise<void>((resolve) => {
          paused.wake = resolve;
        });
        paused.wake = undefined;
      }
    } finally {
      ctx.mcpReq.signal.removeEventListener("abort", cancel);
    }
  }

  /** Holds the execution for the client's retry, for a bounded time. */
  #park(paused: Paused): void {
    paused.attached = false;
    this.#paused.set(paused.id, paused);
    paused.timer = setTimeout(() => {
      // The client never came back: its pending approvals are refused and the program stopped.
      for (const ask of paused.asks) ask.resolve(false);
      paused.controller.abort();
      this.#drop(paused);
    }, APPROVAL_ROUND_TIMEOUT_MS);
    paused.timer.unref();
  }

  #drop(paused: Paused): void {
    clearTimeout(paused.timer);
    this.#paused.delete(paused.id);
  }

  /** Stops every paused execution (the gateway is closing). */
  close(): void {
    for (const paused of this.#paused.values()) {
      for (const ask of paused.asks) ask.resolve(false);
      paused.controller.abort();
      this.#drop(paused);
    }
  }
}
