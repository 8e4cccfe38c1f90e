"""Regressions found by fresh testers (kept as tests): diff of non-move sections, unplayable
rules, bad record files, non-integer bids, ambiguous --beat moves, hands beyond the deck."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddzspec.cards import Cards
from ddzspec.cli import main
from ddzspec.errors import GameError, IllegalMoveError, NotationError
from ddzspec.game import Action, GameState, InvalidBidError
from ddzspec.moves import legal_moves
from ddzspec.rules import load_rules


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_diff_sees_a_scoring_only_change(tmp_path: Path) -> None:
    f = tmp_path / "nospring.rules"
    f.write_text('rules nospring "no spring" extends classic\n'
                 "scoring { base bid  double bomb rocket  settle per_peasant }\n")
    code, out, _ = run("diff", "classic", str(f))
    assert code == 1
    assert out.splitlines()[0].startswith("diff classic nospring:")
    assert "nospring: double bomb rocket" in out and "No multiset differs" in out


def test_tables_are_shared_but_bound_to_the_asking_rules(tmp_path: Path) -> None:
    from ddzspec.rules import load_rules_text
    from ddzspec.table import get_table
    other = load_rules_text('rules other extends classic\ntrick { close_after 2 passes }\n')
    classic = load_rules("classic")
    assert other.digest == classic.digest
    assert get_table(other).rules is other and get_table(classic).rules is classic
    assert get_table(other).entries is get_table(classic).entries


def test_rules_without_single_cannot_be_played() -> None:
    with pytest.raises(GameError, match="cannot be played"):
        GameState.new(load_rules("classic", without=("single",)), seed=1)
    code, _, err = run("play", "--without", "single", "--seed", "1")
    assert code == 2 and "no shape plays a lone card" in err


@pytest.mark.parametrize("content,message", [
    (b"\xff\xfe\x00\x01", "not a UTF-8 text file"),
    (b"[" * 100000 + b"]" * 100000, "nested too deeply"),
])
def test_unreadable_records(tmp_path: Path, content: bytes, message: str) -> None:
    f = tmp_path / "r.json"
    f.write_bytes(content)
    code, _, err = run("replay", str(f))
    assert code == 2 and message in err and "Traceback" not in err


def test_play_save_to_a_bad_path(tmp_path: Path) -> None:
    code, _, err = run("play", "--save", str(tmp_path / "no" / "x.json"))
    assert code == 2 and "cannot write" in err
    code, _, err = run("play", "--save", str(tmp_path))
    assert code == 2 and "cannot write" in err


@pytest.mark.parametrize("value", [True, "1", 1.0])
def test_a_bid_is_a_whole_number(value: object) -> None:
    s = GameState.new(load_rules("classic"), seed=3)
    with pytest.raises(InvalidBidError, match="a bid is a whole number"):
        s.apply(Action("bid", s.turn, value))  # type: ignore[arg-type]


def test_beat_an_ambiguous_move_lists_its_readings() -> None:
    code, _, err = run("moves", "--rules", "duel-literal", "--beat", "555666777888",
                       "666777888999")
    assert code == 2
    assert "plane_singles 555666777+8+8+8" in err and "defect of the rules file" in err


def test_hand_as_cards_is_checked_against_the_deck() -> None:
    with pytest.raises(NotationError, match="the deck has no 3"):
        legal_moves(Cards.parse("33345"), rules=load_rules("duel"))
    with pytest.raises(NotationError, match="more copies of 3"):
        legal_moves(Cards((5,) + (0,) * 14))
    with pytest.raises(IllegalMoveError):
        legal_moves("3456789", previous="33334")


def test_record_with_null_hash_or_altered_rules_is_refused(tmp_path: Path) -> None:
    """A record whose rules cannot be checked exactly is refused (exit 2), never replayed with
    a warning (issue 8 §2). The carried text is the rules: the digest is informational (it is
    ddzspec's cache key and may change between versions), so a changed digest alone replays."""
    f = tmp_path / "r.json"
    run("play", "--seed", "2", "--save", str(f))
    rec = json.loads(f.read_text())
    rec["rules"]["digest"] = "0" * 20
    f.write_text(json.dumps(rec))
    code, out, _ = run("replay", str(f))
    assert code == 0 and "points: seat 0 +2, seat 1 -1, seat 2 -1" in out
    text = rec["rules"]["text"]
    rec["rules"]["text"] = [line.replace("bids 1 2 3", "bids 1 2") for line in text]
    f.write_text(json.dumps(rec))
    code, _, err = run("replay", str(f))
    assert code == 2 and "do not match their sha256" in err and "the record was altered" in err
    rec["rules"]["sha256"] = None
    f.write_text(json.dumps(rec))
    code, _, err = run("replay", str(f))
    assert code == 2 and "needs the \"sha256\" of its text" in err and "None" not in err


def test_score_line_speaks_the_notation() -> None:
    code, out, _ = run("play", "--rules", "kawu", "--seed", "3", "--notation", "fr")
    assert code == 0 and "×2 rocket PJ GJ" in out and "rocket BR" not in out


def test_replay_reads_stdin(tmp_path: Path) -> None:
    f = tmp_path / "r.json"
    run("play", "--seed", "4", "--save", str(f))
    res = CliRunner().invoke(main, ["replay", "-"], input=f.read_text())
    assert res.exit_code == 0 and res.stdout.splitlines()[-1].startswith("points:")


def test_explain_oversized_move_reads_as_a_sentence() -> None:
    _, out, _ = run("explain", "333444555666777888999T")
    assert "22 cards: more than the largest hand (20); no restriction is involved." in out


def test_beats_names_the_empty_argument() -> None:
    code, _, err = run("beats", "3", "")
    assert code == 2 and "PREVIOUS: no cards given" in err


def test_solver_batch_uses_the_rules_option_and_survives_odd_fields(tmp_path: Path) -> None:
    f = tmp_path / "c.jsonl"
    f.write_text('{"id":"f","hands":{"first":"KK","second":5},"to_move":"first"}\n'
                 '{"id":"g","hands":{"first":"KK","second":"5"},"winner":"first",'
                 '"winning_moves":[5]}\n'
                 '{"id":"d","position":"landlord: 33\\npeasant: 5\\nto_move: landlord\\n"}\n')
    code, out, _ = run("solve", "--batch", str(f))
    assert code == 2 and "Traceback" not in out  # a bad line: bad input
    assert "error in f: malformed puzzle record: each hand must be a card string" in out
    assert ('error in g: expected answer: "winning_moves" must be a list of card strings'
            in out)  # a badly typed expectation is an error row, never silently ignored
    assert "solved 1/3" in out
    code, out, _ = run("solve", "--batch", str(f), "--rules", "duel")
    assert "error in d: position d:1:11: the deck has no 3" in out


def test_solver_refuses_nan_limits_binary_files_and_unplayable_rules(tmp_path: Path) -> None:
    code, _, err = run("solve", "--landlord", "3", "--peasant", "4", "--to-move", "landlord",
                       "--limit-seconds", "nan")
    assert code == 2 and "not a number" in err
    f = tmp_path / "bin.pos"
    f.write_bytes(b"\xff\xfe\x00")
    code, _, err = run("solve", str(f))
    assert code == 2 and "not a UTF-8 text file" in err
    code, _, err = run("solve", "--landlord", "3", "--peasant", "4", "--to-move", "landlord",
                       "--without", "single")
    assert code == 2 and "cannot be played out" in err
