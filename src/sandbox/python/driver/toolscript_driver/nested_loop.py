"""`asyncio.run(main())`, the usual way to start async code, where the program already runs in a loop.

It cannot work here (the loop is running); a clear error replaces asyncio's,
and the coroutine is closed so no "never awaited" warning reaches the logs.
"""

import asyncio

_ORIGINAL_RUN = asyncio.run
MESSAGE = "asyncio.run() cannot be used here: the program already runs in an event loop; write `await main()` (top-level await works)"


def _refuse_run(main, **_options):
    close = getattr(main, "close", None)
    if callable(close):
        close()
    raise RuntimeError(MESSAGE)


def install():
    asyncio.run = _refuse_run


def uninstall():
    asyncio.run = _ORIGINAL_RUN
