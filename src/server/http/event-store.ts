import type { EventId, EventStore, JSONRPCMessage, StreamId } from "@modelcontextprotocol/server";

/** Events kept per session for replay; older ones are dropped first. */
export const MAX_REPLAY_EVENTS = 1000;
/** Characters of serialized events kept per session for replay. */
export const MAX_REPLAY_CHARS = 4 * 1024 * 1024;

interface Stored {
  id: EventId;
  stream: StreamId;
  message: JSONRPCMessage;
  chars: number;
}

/**
 * The SSE events of one 2025-era HTTP session, so a client that lost its
 * stream can reconnect with `Last-Event-ID` and get what it missed. Bounded
 * (events and characters): a client that never reads cannot grow it without limit;
 * an id older than what is kept replays nothing (the stream id still resolves).
 */
export class SessionEventStore implements EventStore {
  readonly #events: Stored[] = [];
  #chars = 0;
  #seq = 0;

  constructor(
    private readonly maxEvents = MAX_REPLAY_EVENTS,
    private readonly maxChars = MAX_REPLAY_CHARS,
  ) {}

  async storeEvent(stream: StreamId, message: JSONRPCMessage): Promise<EventId> {
    // The stream id is in the event id, so replay finds its stream even after its events were dropped.
    const id = `${stream}~${++this.#seq}`;
    const chars = JSON.stringify(message).length;
    this.#events.push({ id, stream, message, chars });
    this.#chars += chars;
    while (this.#events.length > this.maxEvents || (this.#chars > this.maxChars && this.#events.length > 1)) {
      const dropped = this.#events.shift();
      if (dropped) this.#chars -= dropped.chars;
    }
    return id;
  }

  async getStreamIdForEventId(id: EventId): Promise<StreamId | undefined> {
    const cut = id.lastIndexOf("~");
    return cut > 0 ? id.slice(0, cut) : undefined;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (id: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const stream = await this.getStreamIdForEventId(lastEventId);
    const seq = Number(lastEventId.slice(lastEventId.lastIndexOf("~") + 1));
    if (stream === undefined || !Number.isSafeInteger(seq))
      throw new Error(`unknown event id "${lastEventId.slice(0, 100)}"`);
    for (const event of this.#events) {
      if (event.stream !== stream) continue;
      if (Number(event.id.slice(event.id.lastIndexOf("~") + 1)) > seq) await send(event.id, event.message);
    }
    return stream;
  }

  get size(): number {
    return this.#events.length;
  }
}
