"""The event loop's ready callbacks, run as soon as a host reply has woken them.

Pyodide's WebLoop runs each `call_soon` callback in its own JavaScript task
(a Handle, a closure and a once-callable proxy each, then a hop through the JS
event loop). Here `call_soon` appends to one queue instead, drained by one
scheduled callback per batch, and by `host_calls.deliver` right after a reply
resolved its future: the program resumes in the same turn that read the reply.
Each drain runs only the callbacks queued when it starts (as asyncio's own
loop does), so a `while True: await asyncio.sleep(0)` still lets replies in.
"""

from asyncio import Handle as _Handle
from collections import deque as _deque


class _ReadyQueue:
    __slots__ = ("loop", "ready", "scheduled", "draining", "holding", "schedule", "install_running")

    def __init__(self, loop):
        self.loop = loop
        self.ready = _deque()
        self.scheduled = False
        self.draining = False
        # Set while a reply resolves its future: what that wakes is run at once, nothing is scheduled for it.
        self.holding = False
        # The loop's own call_soon, bound before it is replaced on the instance.
        self.schedule = loop.call_soon
        self.install_running = getattr(loop, "_install_running_loop", None)

    def call_soon(self, callback, *args, context=None):
        handle = _Handle(callback, args, self.loop, context)
        self.ready.append(handle)
        if not self.scheduled and not self.holding:
            self.scheduled = True
            self.schedule(self.drain_scheduled)
        return handle

    def drain_scheduled(self):
        self.scheduled = False
        self.drain()

    def drain(self):
        ready = self.ready
        self.draining = True
        try:
            for _ in range(len(ready)):
                if not ready:
                    break
                handle = ready.popleft()
                if not handle._cancelled:
                    handle._run()
        finally:
            self.draining = False
            # SystemExit or KeyboardInterrupt out of a callback: the rest still runs, later.
            if ready and not self.scheduled:
                self.scheduled = True
                self.schedule(self.drain_scheduled)


_queue = None


def install(loop):
    """Replaces `loop.call_soon` (Pyodide's WebLoop only: other loops keep their own ready queue)."""
    global _queue
    if type(loop).__name__ != "WebLoop" or _queue is not None:
        return
    _queue = _ReadyQueue(loop)
    loop.call_soon = _queue.call_soon


def uninstall():
    """Gives `call_soon` back to the loop; callbacks still queued run from the drain already scheduled."""
    global _queue
    if _queue is None:
        return
    try:
        del _queue.loop.call_soon
    except AttributeError:
        pass
    _queue = None


def resolve(future, value):
    """`future.set_result(value)`, then the callbacks that woke, at once (from outside the loop: a reply delivered)."""
    queue = _queue
    # No queue (not Pyodide), or called from inside a callback (a program calling deliver itself): the usual way.
    if queue is None or queue.draining:
        future.set_result(value)
        return
    queue.holding = True
    try:
        future.set_result(value)
    finally:
        queue.holding = False
    if queue.install_running is not None:
        queue.install_running()
    queue.drain()
