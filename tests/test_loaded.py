"""A web process freezes what it loaded (config.loaded): the modules of every view are
among it, so the garbage collector's full passes do not walk them during requests."""

import os
import subprocess
import sys

import pytest

from scripts.served import ROOT

CHECK = """
import gc
import {module}
import figures.views
print(gc.get_freeze_count() > 0)
print(any(o is figures.views.FiguresView for o in gc.get_objects()))
"""


@pytest.mark.parametrize("module", ["config.wsgi", "config.asgi"])
def test_the_views_are_loaded_before_the_freeze(module):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_dev"}
    result = subprocess.run(
        [sys.executable, "-c", CHECK.format(module=module)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    frozen, tracked = result.stdout.split()
    # Frozen objects are tracked but in no generation: gc.get_objects() leaves them out.
    assert (frozen, tracked) == ("True", "False")
