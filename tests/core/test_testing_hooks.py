import os

from core.testing_hooks import pause_for_tests

SECONDS = "TEST_HOOK_PAUSE_SECONDS"
MARKER = "TEST_HOOK_PAUSE_MARKER"


def test_unset_does_nothing(monkeypatch, tmp_path):
    marker = tmp_path / "marker"
    monkeypatch.delenv(SECONDS, raising=False)
    monkeypatch.setenv(MARKER, str(marker))
    pause_for_tests(SECONDS, MARKER)
    assert not marker.exists()


def test_set_writes_the_process_id_to_the_marker(monkeypatch, tmp_path):
    marker = tmp_path / "marker"
    monkeypatch.setenv(SECONDS, "0")
    monkeypatch.setenv(MARKER, str(marker))
    pause_for_tests(SECONDS, MARKER)
    assert marker.read_text() == str(os.getpid())


def test_set_without_marker_writes_nothing(monkeypatch, tmp_path):
    monkeypatch.setenv(SECONDS, "0")
    monkeypatch.delenv(MARKER, raising=False)
    pause_for_tests(SECONDS, MARKER)
    assert list(tmp_path.iterdir()) == []
