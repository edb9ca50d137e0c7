"""`print`, `sys.stdout` and `sys.stderr` as the host's logs.

Each stream is line-buffered: what was written goes to `host.log` as one
message when a write ends with a newline, and on flush. Only what fits the run's
log budget (`maxLogBytes`) is sent: a message longer than the room left is cut
here, from its parts, without joining the whole first. Past the budget writes
are dropped; the host marks its logs as truncated.
"""

import io

# Room kept in a cut message for the note of how much was left out.
_NOTE_ROOM = 40


class LogBudget:
    """Characters of log output left for the run (below zero once spent), shared by both streams."""

    __slots__ = ("_host_log", "left")

    def __init__(self, host_log, max_bytes):
        self._host_log = host_log
        self.left = max_bytes

    def spent(self):
        return self.left < 0

    def emit(self, level, parts, total):
        if self.left < 0:
            return
        # The same accounting as the TypeScript console (src/sandbox/shared/prelude/console.ts).
        room = self.left - 1
        self.left -= total + 1
        message = "".join(parts) if total * 4 <= room else _cut(parts, total, room)
        self._host_log(level, message)


def _prefix(parts, count):
    """The first `count` characters of the concatenation of `parts`."""
    taken = []
    for part in parts:
        if count <= 0:
            break
        taken.append(part[:count])
        count -= len(taken[-1])
    return "".join(taken)


def _cut(parts, total, max_bytes):
    budget = max_bytes - _NOTE_ROOM
    if budget <= 0:
        # No room for a note: the host's log collector cuts this short start and marks the cut.
        return _prefix(parts, max(max_bytes, 0) + 1)
    head = _prefix(parts, budget)
    if len(head) >= total and len(head.encode("utf-8", "surrogatepass")) <= max_bytes:
        return head
    kept = head.encode("utf-8", "surrogatepass")[:budget].decode("utf-8", "ignore")
    return f"{kept}… ({total - len(kept)} more characters)"


class LogStream(io.TextIOBase):
    """A text stream whose lines become log messages of one level."""

    def __init__(self, budget, level):
        super().__init__()
        self._budget = budget
        self._level = level
        self._parts = []
        self._chars = 0

    @property
    def encoding(self):
        return "utf-8"

    @property
    def errors(self):
        return "strict"

    def writable(self):
        return True

    def isatty(self):
        return False

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self._budget.spent() or not text:
            return len(text)
        self._parts.append(text)
        self._chars += len(text)
        if text.endswith("\n"):
            self._parts[-1] = text[:-1]
            self._emit(self._chars - 1)
        elif self._chars > self._budget.left:
            # Will be cut anyway: sent now rather than buffered without bound.
            self._emit(self._chars)
        return len(text)

    def flush(self):
        if self._parts:
            self._emit(self._chars)

    def _emit(self, total):
        parts = self._parts
        self._parts = []
        self._chars = 0
        self._budget.emit(self._level, parts, total)
