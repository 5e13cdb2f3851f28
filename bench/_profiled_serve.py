"""``python -m bench._profiled_serve FILE serve ...``: the daemon, profiled over a window only.

Runs ``python -m reverie.daemon`` (its public entry point, with the
arguments after ``FILE``) in this process. A ``cProfile.Profile`` is enabled
on SIGUSR1 and disabled on SIGUSR2, which writes ``FILE`` (to a temporary
name first, so the file appears complete). Start-up (imports, the model
load) and shutdown are therefore not in the profile: only the window the
benchmark signals, on the thread that runs the event loop (signal handlers
run on the main thread).
"""

from __future__ import annotations

import cProfile
import os
import runpy
import signal
import sys
import time
from types import FrameType


def main() -> None:
    out = sys.argv.pop(1)
    profiler = cProfile.Profile(time.thread_time)  # CPU of this thread, not wall time

    def start(signum: int, frame: FrameType | None) -> None:
        profiler.enable()

    def stop(signum: int, frame: FrameType | None) -> None:
        profiler.disable()
        profiler.dump_stats(out + ".part")
        os.replace(out + ".part", out)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    sys.argv[0] = "reverie"
    runpy.run_module("reverie.daemon", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
