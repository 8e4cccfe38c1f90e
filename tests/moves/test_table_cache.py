"""The on-disk move table cache: keyed by everything that determines the table,
trusted only when its header matches, never unpickled, recompiled with a warning otherwise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddzspec import table as table_mod
from ddzspec.cards import N_RANKS, pack
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

    from ddzspec import check
    monkeypatch.setattr(check, "_REPORTS", {})
    good = check.check_rules(small)
    assert good.counts["single"] == 15
    path = check.report_path(small)
    data = json.loads(path.read_text())
    data["counts"]["single"] = 14
    path.write_text(json.dumps(data))
    monkeypatch.setattr(check, "_REPORTS", {})
    with pytest.warns(CacheWarning, match="damaged: its checksum does not match") as rec:
        again = check.check_rules(small)
    assert len(rec) == 1 and again.counts == good.counts and again.counts["single"] == 15
    monkeypatch.setattr(check, "_REPORTS", {})
    assert json.loads(path.read_text())["counts"]["single"] == 15
    assert check.check_rules(small).counts == good.counts


def _forge(path: Path, change: str) -> None:
    """Change a cached table's body as someone able to write the cache folder would, and
    recompute its SHA-256 trailer (which therefore still matches)."""
    import hashlib
    data = bytearray(path.read_bytes())
    head = len(table_mod.MAGIC) + table_mod._HEADER.size
    n = table_mod._HEADER.unpack_from(data, len(table_mod.MAGIC))[3]
    if change == "key":  # the first multiset: four 3s and more, no move of its entry
        data[head:head + 8] = (0o7777).to_bytes(8, "little")
    else:  # the first entry: another body of the rules (shape 5, start 0, run 1)
        data[head + 8 * n:head + 8 * n + 4] = ((5 << 16) | 1).to_bytes(4, "little")
    body = bytes(data[:-32])
    path.write_bytes(body + hashlib.sha256(body).digest())


@given(counts=st.lists(st.integers(0, 15), min_size=N_RANKS, max_size=N_RANKS))
def test_the_entry_check_counts_the_cards_of_any_key(counts: list[int]) -> None:
    # the check compares a multiset's cards with its shape's size: every count a key holds
    assert table_mod._size(pack(counts)) == sum(counts)


@pytest.mark.parametrize("change", ["key", "entry"])
def test_a_forged_table_whose_checksum_matches_is_rebuilt_not_served(
        small: Rules, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    good = get_table(small)
    _forge(table_path(small), change)
    monkeypatch.setattr(table_mod, "_LOADED", {})
    calls = _compiles(monkeypatch)
    with pytest.warns(CacheWarning, match="an entry names no shape body of these rules, or a "
                      "multiset that body cannot be read from"):
        again = get_table(small)
    assert calls == [1] and again.entries == good.entries


@pytest.mark.parametrize("change", ["key", "entry"])
def test_diff_and_check_over_a_forged_table_answer_without_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str, cli: Any) -> None:
    from ddzspec.rules import load_rules
    monkeypatch.setenv("DDZSPEC_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(table_mod, "_LOADED", {})
    clean = cli("diff", "classic", "kawu")
    _forge(table_path(load_rules("classic")), change)
    monkeypatch.setattr(table_mod, "_LOADED", {})
    for args, out in ((["diff", "classic", "kawu"], clean.output), (["check", "kawu"], None)):
        r = cli(*args)
        assert r.exception is None or isinstance(r.exception, SystemExit), r.output
        shown = [x for x in r.output.splitlines(keepends=True) if "warning" not in x]
        assert r.exit_code in (0, 1) and (out is None or "".join(shown) == out)
        if out is not None:  # the forged table was ignored, said so, and rebuilt
            assert "ignored (an entry names no shape body" in r.output


def test_a_huge_foreign_file_is_judged_by_its_header_unread(
        small: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    import resource
    import time
    get_table(small)
    path = table_path(small)
    header = path.read_bytes()[:len(table_mod.MAGIC) + table_mod._HEADER.size]
    for start in (b"foreign", header):  # not ours; ours but padded to 3 GiB (sparse)
        with path.open("wb") as f:
            f.write(start)
            f.truncate(3 * 1024 ** 3)
        monkeypatch.setattr(table_mod, "_LOADED", {})
        before, t0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, time.monotonic()
        with pytest.warns(CacheWarning) as rec:
            assert len(get_table(small)) == 370
        assert time.monotonic() - t0 < 5
        assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 64 * 1024  # KiB
        assert ("not a ddzspec table file" if start == b"foreign" else
                "truncated or padded (3221225472 bytes, its header says") in str(rec[0].message)


def test_a_truncated_table_is_rebuilt(small: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    good = get_table(small)
    path = table_path(small)
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    monkeypatch.setattr(table_mod, "_LOADED", {})
    with pytest.warns(CacheWarning, match=rf"truncated or padded \({len(data) // 2} bytes, its "
                      rf"header says {len(data)}\)"):
        assert get_table(small).entries == good.entries
    assert path.read_bytes() == data  # rewritten whole


def test_a_rules_name_longer_than_a_file_name_still_caches(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    from ddzspec.check import report_path
    monkeypatch.setenv("DDZSPEC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(table_mod, "_LOADED", {})
    name = "x" * 240
    f = tmp_path / "long.rules"
    f.write_text(SMALL.replace("rules small", f"rules {name}"))
    r = cli("check", str(f))
    assert r.exit_code == 0 and r.output.endswith("each with exactly one reading.\n"), r.output
    rules = load_rules_text(f.read_text())
    assert report_path(rules).is_file() and len(report_path(rules).name) < 120
    assert report_path(rules).name.startswith("x" * table_mod.CACHE_NAME_CHARS + "-")
    get_table(rules)
    assert table_path(rules).is_file() and len(table_path(rules).name) < 120
    r = cli("check", "--rules", "y" * 300)
    assert r.exit_code == 2 and "File name too long (a name in a path is at most 255 bytes)" \
        in r.output




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
