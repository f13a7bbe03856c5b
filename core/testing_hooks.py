"""Pauses that tests switch on through the environment: a write can stop inside its
transaction for a while, so a test can kill the process half-way (or run a second write
against the locked rows) and see what was kept. Off unless the variable is set.
"""

import os
import time


def pause_for_tests(seconds_env: str, marker_env: str) -> None:
    """Sleep for the seconds in ``seconds_env`` when set, first writing this process's id
    to the file named in ``marker_env`` (when set) so the test knows the pause began."""
    seconds = os.environ.get(seconds_env)
    if not seconds:
        return
    marker = os.environ.get(marker_env)
    if marker:
        with open(marker, "w") as handle:
            handle.write(str(os.getpid()))
    time.sleep(float(seconds))
