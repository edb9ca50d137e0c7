import type { ServerResponse } from "node:http";
import { PAGE_HEADERS } from "./page-headers.ts";

/** Browsers watching at once; more are refused (503) rather than slowing the gateway. */
export const MAX_EVENT_STREAMS = 16;
/** A comment line this often keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;
/**
 * Bytes a slow browser may leave unread before its stream is dropped: it
 * reconnects (EventSource does) and starts again from a fresh snapshot.
 */
export const MAX_UNREAD_BYTES = 1024 * 1024;

export interface EventStreamOptions {
  maxStreams?: number;
  heartbeatMs?: number;
  maxUnreadBytes?: number;
  /** Told when the first stream opens and the last one closes (the caller's timers run only meanwhile). */
  onActive?: (active: boolean) => void;
}

/** Open server-sent-event streams: opened, written to, and ended together. */
export class EventStreams {
  readonly #streams = new Set<ServerResponse>();
  readonly #maxStreams: number;
  readonly #heartbeatMs: number;
  readonly #maxUnreadBytes: number;
  readonly #onActive: (active: boolean) => void;
  #heartbeat: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: EventStreamOptions = {}) {
    this.#maxStreams = options.maxStreams ?? MAX_EVENT_STREAMS;
    this.#heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.#maxUnreadBytes = options.maxUnreadBytes ?? MAX_UNREAD_BYTES;
    this.#onActive = options.onActive ?? (() => {});
  }

  get size(): number {
    return this.#streams.size;
  }

  /** Starts a stream on `response`; false (and nothing written) when at the cap or closed. */
  open(response: ServerResponse): boolean {
    if (this.#closed || this.#streams.size >= this.#maxStreams) return false;
    response.writeHead(200, {
      ...PAGE_HEADERS,
      "content-type": "text/event-stream; charset=utf-8",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    // The browser retries after 2 s when the stream drops.
    response.write("retry: 2000\n\n");
    this.#streams.add(response);
    response.once("close", () => this.#remove(response));
    if (this.#streams.size === 1) {
      this.#heartbeat = setInterval(() => this.#writeAll(": heartbeat\n\n"), this.#heartbeatMs);
      this.#heartbeat.unref();
      this.#onActive(true);
    }
    return true;
  }

  /** Sends one event to one stream. */
  send(response: ServerResponse, event: string, data: unknown): void {
    this.#write(response, frame(event, data));
  }

  /** Sends one event to every stream, serialized once. */
  broadcast(event: string, data: unknown): void {
    if (this.#streams.size > 0) this.#writeAll(frame(event, data));
  }

  /** Ends every stream and refuses new ones. */
  close(): void {
    this.#closed = true;
    for (const response of [...this.#streams]) response.end();
    for (const response of [...this.#streams]) this.#remove(response);
  }

  #writeAll(text: string): void {
    for (const response of [...this.#streams]) this.#write(response, text);
  }

  #write(response: ServerResponse, text: string): void {
    if (response.writableLength > this.#maxUnreadBytes) {
      response.destroy();
      this.#remove(response);
      return;
    }
    response.write(text);
  }

  #remove(response: ServerResponse): void {
    if (!this.#streams.delete(response)) return;
    if (this.#streams.size === 0) {
      clearInterval(this.#heartbeat);
      this.#heartbeat = undefined;
      this.#onActive(false);
    }
  }
}

/** One SSE frame; JSON has no raw newline, so one `data:` line holds it. */
function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
