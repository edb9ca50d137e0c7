import { randomBytes } from "node:crypto";
import {
  type InputRequest,
  type InputRequiredResult,
  type InputResponse,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Approver } from "../policy/approval.ts";
import { APPROVAL_SCHEMA, approvalMessage } from "./elicit-approval.ts";

/** How long a paused execution waits for the client to send its answers back. */
export const APPROVAL_ROUND_TIMEOUT_MS = 10 * 60_000;
/** Paused executions held at once, all clients together; beyond, questions are refused unasked. */
export const MAX_PAUSED_EXECUTIONS = 256;

/**
 * Puts one question to the client of a paused call (an elicitation, a sampling
 * request, a roots listing: what a 2026-07-28 input-required result carries) and
 * resolves with its answer; undefined when it cannot be asked or never comes
 * (no room to pause, the client went away, the round expired, `signal` aborted).
 */
export type InputAsker = (
  request: InputRequest,
  signal: AbortSignal,
  /** The key to ask it under (an upstream's own key, kept); a fresh one when absent or taken. */
  key?: string,
) => Promise<InputResponse | undefined>;

type Run<T> = (ask: InputAsker, signal: AbortSignal) => Promise<T>;

interface Ask {
  key: string;
  request: InputRequest;
  resolve: (response: InputResponse | undefined) => void;
  sent: boolean;
}

interface Paused {
  /** The `requestState` of its current round: a new one each round, so a stale retry cannot resume it. */
  id: string;
  readonly client: string | null;
  readonly controller: AbortController;
  asks: Ask[];
  done?: { result: Result } | { error: unknown };
  /** Wakes the request waiting on this execution (a question asked, or the end). */
  wake?: () => void;
  /** A request is waiting on it now (the first call, or a retry). */
  attached: boolean;
  timer?: NodeJS.Timeout;
  seq: number;
}

/**
 * The multi round-trip flow of protocol 2026-07-28 for anything a call must ask
 * its client while it runs: approvals of an `execute_code` program's calls, and
 * the sampling, elicitation and roots requests an upstream server makes during a
 * call (passed-through, or from a program). The call answers an input-required
 * result (the pending questions, and a `requestState` naming the paused call);
 * the client answers them and retries the call, which resumes it where it waited.
 *
 * The call outlives the HTTP request that started it, so it is kept here, per
 * gateway process, under an unguessable id that only the client that started
 * it may resume (the id is the capability: 144 random bits).
 */
export class InputRounds {
  readonly #paused = new Map<string, Paused>();

  get size(): number {
    return this.#paused.size;
  }

  /**
   * Starts a call; answers its result, or an input-required result when it waits
   * for answers. A run that throws fails the request attached when it ends.
   */
  async start<T extends Result>(
    run: Run<T>,
    ctx: ServerContext,
    client: string | null,
  ): Promise<T | InputRequiredResult> {
    const paused: Paused = {
      id: randomBytes(18).toString("base64url"),
      client,
      controller: new AbortController(),
      asks: [],
      attached: true,
      seq: 0,
    };
    const full = this.#paused.size >= MAX_PAUSED_EXECUTIONS;
    const ask: InputAsker = (request, signal, wanted) =>
      new Promise<InputResponse | undefined>((resolve) => {
        // No room to pause one more call: unanswered, like a client that cannot answer.
        if (full || signal.aborted) return resolve(undefined);
        const taken = wanted === undefined || paused.asks.some((other) => other.key === wanted);
        const key = taken ? `${keyPrefix(request)}-${++paused.seq}` : wanted;
        const entry: Ask = { key, request, resolve, sent: false };
        paused.asks.push(entry);
        signal.addEventListener(
          "abort",
          () => {
            const at = paused.asks.indexOf(entry);
            if (at >= 0) paused.asks.splice(at, 1);
            resolve(undefined);
          },
          { once: true },
        );
        paused.wake?.();
      });
    run(ask, paused.controller.signal).then(
      (result) => this.#finish(paused, { result }),
      (error: unknown) => this.#finish(paused, { error }),
    );
    return this.#wait(paused, ctx) as Promise<T | InputRequiredResult>;
  }

  /** A retried call carrying `requestState`: the answers go to the paused call, which goes on. */
  async resume(state: string, ctx: ServerContext, client: string | null): Promise<Result> {
    const paused = this.#paused.get(state);
    // Another client's call is as unknown as one that never existed.
    if (!paused || paused.client !== client || paused.attached)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        "Invalid or expired requestState: no paused call by that id (it ended, expired, or is being resumed)",
        { reason: "invalid_request_state" },
      );
    clearTimeout(paused.timer);
    paused.attached = true;
    const responses = ctx.mcpReq.inputResponses as Record<string, InputResponse> | undefined;
    for (const ask of paused.asks.filter((candidate) => candidate.sent)) {
      if (responses === undefined || !Object.hasOwn(responses, ask.key)) {
        // No answer for it: asked again in the next round.
        ask.sent = false;
        continue;
      }
      paused.asks.splice(paused.asks.indexOf(ask), 1);
      ask.resolve(responses[ask.key]);
    }
    return this.#wait(paused, ctx);
  }

  /** Waits for the end or for questions to ask, while this request is attached. */
  async #wait(paused: Paused, ctx: ServerContext): Promise<Result> {
    // The client cancelling the call it is waiting on cancels the paused call.
    const cancel = () => paused.controller.abort();
    ctx.mcpReq.signal.addEventListener("abort", cancel, { once: true });
    try {
      for (;;) {
        if (paused.done) {
          this.#drop(paused);
          if ("error" in paused.done) throw paused.done.error;
          return paused.done.result;
        }
        let unsent = paused.asks.filter((ask) => !ask.sent);
        if (unsent.length > 0) {
          // Questions asked together (an upstream's several input requests) go in one round.
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (paused.done) continue;
          unsent = paused.asks.filter((ask) => !ask.sent);
          if (unsent.length === 0) continue;
          for (const ask of unsent) ask.sent = true;
          this.#park(paused);
          return inputRequired({
            inputRequests: Object.fromEntries(paused.asks.map((ask) => [ask.key, ask.request])),
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

  #finish(paused: Paused, done: { result: Result } | { error: unknown }): void {
    paused.done = done;
    paused.wake?.();
    // Finished while nobody waits (the client never came back): nothing left to hold.
    if (!paused.attached) this.#drop(paused);
  }

  /** Holds the call for the client's retry, for a bounded time. */
  #park(paused: Paused): void {
    paused.attached = false;
    this.#paused.delete(paused.id);
    paused.id = randomBytes(18).toString("base64url");
    this.#paused.set(paused.id, paused);
    paused.timer = setTimeout(() => {
      // The client never came back: its pending questions go unanswered and the call is stopped.
      for (const ask of paused.asks) ask.resolve(undefined);
      paused.controller.abort();
      this.#drop(paused);
    }, APPROVAL_ROUND_TIMEOUT_MS);
    paused.timer.unref();
  }

  #drop(paused: Paused): void {
    clearTimeout(paused.timer);
    this.#paused.delete(paused.id);
  }

  /** Stops every paused call (the gateway is closing). */
  close(): void {
    for (const paused of this.#paused.values()) {
      for (const ask of paused.asks) ask.resolve(undefined);
      paused.controller.abort();
      this.#drop(paused);
    }
  }
}

/** Paused calls of each gateway: they outlive the per-request servers. */
const roundsByGateway = new WeakMap<object, InputRounds>();

/** The gateway's paused calls (one table for execute_code and pass-through calls). */
export function roundsOf(gateway: object): InputRounds {
  let rounds = roundsByGateway.get(gateway);
  if (!rounds) {
    rounds = new InputRounds();
    roundsByGateway.set(gateway, rounds);
  }
  return rounds;
}

/** Keys say what is asked: `approve-1` for the gateway's own approvals, `sampling-2`, `elicitation-3`, `roots-4`. */
function keyPrefix(request: InputRequest): string {
  if (request.method === "sampling/createMessage") return "sampling";
  if (request.method === "roots/list") return "roots";
  return "elicitation";
}

/** Approvals asked as elicitations through `ask`: approved only when accepted without `approve: false`. */
export function approverFrom(ask: InputAsker): Approver {
  return async (request, signal) => {
    const question = inputRequired.elicit({
      mode: "form",
      message: approvalMessage(request),
      requestedSchema: APPROVAL_SCHEMA,
    });
    const answer = (await ask(question, signal)) as
      | { action?: unknown; content?: { approve?: unknown } }
      | undefined;
    return answer?.action === "accept" && answer.content?.approve !== false;
  };
}
