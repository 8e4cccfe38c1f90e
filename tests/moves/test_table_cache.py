"""The on-disk move table cache (issue 8 §1): keyed by everything that determines the table,
trusted only when its header matches, never unpickled, recompiled with a warning otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddzspec import table as table_mod
from ddzspec.errors import CacheWarning
from ddzspec.rules import Rules, load_rules_text
from ddzspec.table import cache_key, code_digest, get_table, table_path

SMALL = ('rules small extends classic\n'
         'shapes { without plane_singles without plane_pairs without four_two_singles '
         'without four_two_pairs without trio_pair }\n')


@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Rules:
    monkeypatch.setenv("DDZSPEC_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(table_mod, "_LOADED", {})
    return load_rules_text(SMALL)


def _compiles(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = table_mod.compile_table

    def spy(rules: Rules, progress=None):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(rules, progress)
    monkeypatch.setattr(table_mod, "compile_table", spy)
    return calls


def test_round_trip_without_recompiling(small: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    first = get_table(small)
    assert table_path(small).is_file()
    assert table_path(small).read_bytes().startswith(table_mod.MAGIC)
    monkeypatch.setattr(table_mod, "_LOADED", {})
    calls = _compiles(monkeypatch)
    again = get_table(small)
    assert calls == [] and again.entries == first.entries and again.ambiguous == first.ambiguous
    # single 15 + pair 13 + trio 13 + trio_single 182 + straight 36 + pair_straight 52
    # + plane 45 + bomb 13 + rocket 1 (see tests/moves/test_table.py)
    assert len(again) == 15 + 13 + 13 + 182 + 36 + 52 + 45 + 13 + 1


def test_changed_code_digest_recompiles(small: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    get_table(small)
    old_path = table_path(small)
    monkeypatch.setattr(table_mod, "_LOADED", {})
    monkeypatch.setattr(table_mod, "code_digest", lambda: "an-edited-compiler")
    assert table_path(small) != old_path
    calls = _compiles(monkeypatch)
    get_table(small)
    assert calls == [1] and table_path(small).is_file()


def test_key_covers_version_and_rules(small: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    k = cache_key(small)
    monkeypatch.setattr(table_mod, "package_version", lambda: "99.0")
    assert cache_key(small) != k
    monkeypatch.undo()
    other = load_rules_text(SMALL.replace("without trio_pair ", ""))
    assert cache_key(other) != k
    # a parent edit shows in the resolved rules, hence in the digest (extends is resolved)
    assert len(code_digest()) == 20


@pytest.mark.parametrize("damage", ["garbage", "truncate", "foreign_key", "pickle", "empty"])
def test_untrusted_files_recompile_with_a_warning(small: Rules, monkeypatch: pytest.MonkeyPatch,
                                                  damage: str) -> None:
    good = get_table(small)
    path = table_path(small)
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"garbage")
    elif damage == "truncate":
        path.write_bytes(data[:-5])
    elif damage == "foreign_key":
        n = len(table_mod.MAGIC) + 4
        path.write_bytes(data[:n] + b"0" * 24 + data[n + 24:])
    elif damage == "pickle":
        import pickle
        path.write_bytes(pickle.dumps((good.entries, good.ambiguous)))
    else:
        path.write_bytes(b"")
    monkeypatch.setattr(table_mod, "_LOADED", {})
    calls = _compiles(monkeypatch)
    with pytest.warns(CacheWarning, match="ignored"):
        again = get_table(small)
    assert calls == [1] and again.entries == good.entries
    # and the file was rewritten, trusted next time
    monkeypatch.setattr(table_mod, "_LOADED", {})
    assert get_table(small).entries == good.entries and calls == [1]


def test_entry_out_of_range_is_refused(small: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file with the right header but entries naming no shape body is not trusted."""
    get_table(small)
    path = table_path(small)
    data = bytearray(path.read_bytes())
    head = len(table_mod.MAGIC) + table_mod._HEADER.size
    n = table_mod._HEADER.unpack_from(data, len(table_mod.MAGIC))[3]
    off = head + 8 * n  # the first packed entry
    data[off:off + 4] = (250 << 16).to_bytes(4, "little")
    path.write_bytes(bytes(data))
    monkeypatch.setattr(table_mod, "_LOADED", {})
    with pytest.warns(CacheWarning):
        assert len(get_table(small)) == 370


def test_a_damaged_body_that_still_parses_is_not_trusted(
        small: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tester F3: a table file whose body was damaged on disk but still read as a table (one
    packed multiset changed to another valid one) was trusted and served wrong moves. Its
    SHA-256 trailer no longer matches: ignored with one warning, recompiled, rewritten."""
    good = get_table(small)
    path = table_path(small)
    data = bytearray(path.read_bytes())
    head = len(table_mod.MAGIC) + table_mod._HEADER.size
    n = table_mod._HEADER.unpack_from(data, len(table_mod.MAGIC))[3]
    assert len(data) == head + 12 * n + 32 and n == 370  # no ambiguous moves in `small`
    keys = list(good.entries)
    data[head:head + 8] = keys[1].to_bytes(8, "little")  # the first key now says the second's
    path.write_bytes(bytes(data))
    monkeypatch.setattr(table_mod, "_LOADED", {})
    calls = _compiles(monkeypatch)
    with pytest.warns(CacheWarning, match="damaged: its checksum does not match its contents")\
            as rec:
        again = get_table(small)
    assert len(rec) == 1 and calls == [1] and again.entries == good.entries
    monkeypatch.setattr(table_mod, "_LOADED", {})
    assert get_table(small).entries == good.entries and calls == [1]  # rewritten, trusted


def test_a_damaged_check_report_is_not_trusted(small: Rules,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Tester F3, the check report cached beside the table: a count changed in a file that is
    still valid JSON with the right header is recomputed with one warning."""
    import json

    from ddzspec import verdict
    monkeypatch.setattr(verdict, "_REPORTS", {})
    good = verdict.check_rules(small)
    assert good.counts["single"] == 15
    path = verdict.report_path(small)
    data = json.loads(path.read_text())
    data["counts"]["single"] = 14
    path.write_text(json.dumps(data))
    monkeypatch.setattr(verdict, "_REPORTS", {})
    with pytest.warns(CacheWarning, match="damaged: its checksum does not match") as rec:
        again = verdict.check_rules(small)
    assert len(rec) == 1 and again.counts == good.counts and again.counts["single"] == 15
    monkeypatch.setattr(verdict, "_REPORTS", {})
    assert json.loads(path.read_text())["counts"]["single"] == 15
    assert verdict.check_rules(small).counts == good.counts


# found by tester 2
def test_a_cache_warning_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys
    monkeypatch.setenv("DDZSPEC_CACHE_DIR", str(tmp_path))
    cmd = [sys.executable, "-m", "ddzspec", "check", "--rules", "kawu"]
    subprocess.run(cmd, check=True, capture_output=True)
    for f in tmp_path.iterdir():
        f.write_text("garbage")
    res = subprocess.run(cmd, capture_output=True, text=True, check=True)
    assert res.stderr.startswith("ddzspec: warning: cached ") and "recomputing" in res.stderr
    assert len(res.stderr.splitlines()) == 1 and ".py:" not in res.stderr
