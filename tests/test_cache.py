"""The per-user cache directory (`csp._cache`) and its users."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from csp import _cache, _numba_cache
from csp.backends import ace


def test_an_absolute_xdg_cache_home_is_used(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert _cache.cache_home() == tmp_path / "csp"
    assert _numba_cache._candidates()[0] == tmp_path / "csp" / "numba"
    assert ace._cache_dir() == str(tmp_path / "csp" / "ace")
    assert (tmp_path / "csp" / "ace").is_dir()


def test_a_relative_xdg_cache_home_is_ignored(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert _cache.cache_home() == tmp_path / ".cache" / "csp"


def _no_home() -> Path:
    raise RuntimeError("Could not determine home directory.")


def test_without_a_home_directory_nothing_lands_in_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(Path, "home", staticmethod(_no_home))
    monkeypatch.chdir(tmp_path)
    assert _cache.cache_home() is None
    # numba falls back to the temporary directory; ACE goes without its archive.
    assert [p.parent for p in _numba_cache._candidates()] == [Path(tempfile.gettempdir())]
    assert ace._cache_dir() is None
    assert list(tmp_path.iterdir()) == []
