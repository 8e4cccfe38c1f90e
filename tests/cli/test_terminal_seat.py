"""The terminal seat: ``ddzspec play --seat N`` driven through its prompt with
pexpect — a full classic deal and a full duel deal (strategy: bid the highest legal bid or
call/rob, then always type ``hint`` and play the first hint), resume from a saved record, bad
input at the prompt (the game unchanged), end of input and Ctrl-C (the record intact)."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest

from ddzspec._resources import data_dir
from ddzspec.cards import Cards
from ddzspec.cli.seat import SeatQuit, TerminalSeat
from ddzspec.game import Action, ActionKind, GameState, Phase
from ddzspec.game.record import load, resume
from ddzspec.players import player_for
from ddzspec.rules import Rules, load_rules, load_rules_text

BID = re.compile(r"seat (\d) (bid|call|rob) \[([^\]]*)\]> ")
TURN = re.compile(r"seat (\d)> ")
HINT = re.compile(r"hint \d+/\d+: (.+?)(?: \((\w+)\))?\r?\n")
END = re.compile(r"points: [^\r\n]*\r?\n")


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), COLUMNS="200",
               PYTHONIOENCODING="utf-8")
    child = pexpect.spawn(sys.executable, ["-m", "ddzspec", "play", *args], env=env,
                         encoding="utf-8", timeout=60, dimensions=(50, 200))
    child.delaybeforesend = None
    return child


def drive(child: pexpect.spawn, seat: int, max_turns: int = 200) -> str:
    """Play to the end: the highest bid (or call/rob), then always the first hint."""
    for _ in range(max_turns):
        i = child.expect([BID, TURN, END])
        if i == 2:
            return child.match.group(0)
        assert int(child.match.group(1)) == seat
        if i == 0:
            child.sendline(child.match.group(3).split("/")[-1 if
                                                          child.match.group(2) == "bid" else 0])
            continue
        play_first_hint(child)
    raise AssertionError("the deal did not end")


def play_first_hint(child: pexpect.spawn) -> None:
    """At the prompt: type hint, wait for the prompt again, type the hint's cards."""
    child.sendline("hint")
    child.expect(HINT)
    cards = child.match.group(1)
    child.expect(TURN)
    child.sendline(cards)


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus  # type: ignore[no-any-return]


@pytest.mark.parametrize(("rules", "seat", "seed"), [("classic", 0, 5), ("duel", 1, 2)])
def test_full_deal_through_the_prompt(tmp_path: Path, rules: str, seat: int, seed: int) -> None:
    save = tmp_path / "deal.json"
    child = spawn(tmp_path, "--rules", rules, "--seat", str(seat), "--seed", str(seed),
                  "--levels", "1", "--save", str(save))
    child.expect(f"you are seat {seat}; the deal is saved to {save}")
    # the prompt shows the hand and the cards left per seat
    child.expect(r"your hand \(17\): ")
    child.expect("cards left: ")
    drive(child, seat)
    child.expect(f"the deal's record: {save}")
    assert finish(child) == 0
    rec = json.loads(save.read_text())
    assert rec["result"] is not None and rec["rules"]["name"] == rules
    state = resume(load(save))
    assert state.over and state.result is not None
    assert state.result.to_json() == rec["result"]


def test_duel_prompt_shows_handicap_and_counter(tmp_path: Path) -> None:
    save = tmp_path / "duel.json"
    child = spawn(tmp_path, "--rules", "duel", "--seat", "0", "--seed", "4", "--levels", "1",
                  "--save", str(save))
    for _ in range(12):  # call and rob: only the legal choices
        i = child.expect([BID, TURN])
        if i == 1:
            break
        assert child.match.group(3) in ("call/no", "rob/no")
        child.sendline(child.match.group(3).split("/")[0])
    child.sendline("counter")
    # duel: the counter includes the 9 undealt cards, never shown
    child.expect(r"unseen \((\d+)\): [^\r\n]*\(with the 9 undealt cards, never shown\)")
    state = resume(load(save))
    assert int(child.match.group(1)) == len(state.unseen(0))
    child.sendline("quit")
    child.expect("stopped; the deal is saved")
    assert finish(child) == 0


def test_bad_input_leaves_the_game_unchanged(tmp_path: Path) -> None:
    save = tmp_path / "bad.json"
    child = spawn(tmp_path, "--seat", "0", "--seed", "5", "--levels", "1", "--save", str(save))
    child.expect(BID)
    child.sendline("7")
    child.expect("refused: bid 7: the bids are pass \\(0\\) or 1, 2, 3")
    child.sendline("maybe")
    child.expect("not a choice: 'maybe'")
    child.sendline("3")  # the top bid: seat 0 is the landlord and leads
    child.expect(r"your hand \(20\): ([^\r\n]+)\r?\n")
    hand = child.match.group(1).split()
    child.expect(TURN)
    before = save.read_text()
    child.sendline("3X")
    child.expect(r"not cards: column 2: unknown symbol 'X'")
    child.expect(TURN)
    child.sendline("pass")
    child.expect("refused: seat 0 leads this trick and may not pass")
    child.expect(TURN)
    # two cards of different ranks, not a pair: refused with the explain text
    a, b = hand[0][0], hand[1][0]
    child.sendline(a + b)
    child.expect(f"refused: {a}{b} is not a legal move.")
    child.expect("Nearest shape: single")
    child.expect(TURN)
    child.sendline("22222")
    child.expect("not cards: .*more copies")
    child.expect(TURN)
    child.sendline("help")
    child.expect("counter +the cards you have not seen")
    assert save.read_text() == before  # nothing was applied or written
    child.sendeof()  # end of input: one line, the record intact
    child.expect(r"stopped; the deal is saved: ddzspec play --seat 0 --resume ")
    assert finish(child) == 0
    assert save.read_text() == before


def test_resume_a_saved_deal(tmp_path: Path) -> None:
    save = tmp_path / "r.json"
    child = spawn(tmp_path, "--seat", "2", "--seed", "11", "--levels", "1", "--save", str(save))
    for _ in range(3):  # play two turns, then stop
        i = child.expect([BID, TURN])
        if i == 0:
            child.sendline("pass" if "pass" in child.match.group(3) else "no")
            continue
        play_first_hint(child)
    child.expect([BID, TURN])
    child.sendline("quit")
    assert finish(child) == 0
    saved = resume(load(save))
    assert not saved.over and saved.turn == 2
    child = spawn(tmp_path, "--seat", "2", "--resume", str(save), "--levels", "1")
    child.expect(f"the deal is saved to {save}")
    child.expect(r"your hand \((\d+)\): ")
    assert int(child.match.group(1)) == len(saved.hands[2])
    drive(child, 2)
    assert finish(child) == 0
    final = resume(load(save))
    assert final.over and final.log[:len(saved.log)] == saved.log


def test_ctrl_c_exits_130_with_the_record_intact(tmp_path: Path) -> None:
    save = tmp_path / "c.json"
    child = spawn(tmp_path, "--seat", "1", "--seed", "3", "--levels", "1", "--save", str(save))
    child.expect([BID, TURN])
    before = save.read_text()
    child.sendintr()
    child.expect("ddzspec: interrupted; the deal is saved: ddzspec play --seat 1 --resume ")
    assert finish(child) == 130
    assert save.read_text() == before and resume(load(save)).turn == 1


def test_default_save_file_in_the_data_folder(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "0", "--seed", "1", "--levels", "1")
    child.expect(r"the deal is saved to (\S+\.json) after every action")
    path = Path(child.match.group(1))
    assert path.parent == tmp_path / "data" / "ddzspec" / "games"
    child.expect([BID, TURN])
    child.sendline("quit")
    assert finish(child) == 0
    assert resume(load(path)).rules == load_rules("classic")


@pytest.mark.parametrize(("args", "message"), [
    (["--seat", "3"], "--seat: 3 is not a seat of classic (0 to 2)"),
    (["--seat", "0", "--games", "2"], "--seat: the terminal seat plays one deal"),
    (["--resume", "x.json"], "x.json: cannot read: No such file or directory"),
    (["--seat", "0", "--resume", "nope.json"], "nope.json: cannot read"),
])
def test_bad_options(tmp_path: Path, args: list[str], message: str, cli: Any) -> None:
    res = cli("play", *args)
    assert res.exit_code == 2 and message in res.stderr, res.stderr


def test_resume_without_seat_says_what_is_missing(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  cli: Any) -> None:
    """Tester F9: ``play --resume FILE`` without --seat said "give --seat N too (FILE does not
    say which seat you played)" for a file that does not exist, is not a record, or holds a
    finished deal. Each case now says what is wrong; a record not saved by ``play --seat``
    asks for the seat, and resumes with it."""
    from ddzspec.game import GameState
    from ddzspec.game.record import save as save_record
    monkeypatch.chdir(tmp_path)
    assert cli("play", "--seed", "3", "--save", "over.json").exit_code == 0
    (tmp_path / "notes.txt").write_text("hello\n")
    save_record(GameState.new(load_rules("classic"), seed=5), tmp_path / "fresh.json")
    for file, message in (
            ("over.json", "--resume: the deal in over.json is over, there is nothing to resume "
                          "(`ddzspec replay over.json` shows it move by move)"),
            ("fresh.json", "--resume: fresh.json does not say which seat is yours (not saved "
                           "by `play --seat`, or by an older ddzspec): give --seat N (0 to 2) "
                           "to take a seat in it"),
            ("notes.txt", "notes.txt: not JSON: line 1 column 1: Expecting value"),
            ("gone.json", "gone.json: cannot read: No such file or directory")):
        res = cli("play", "--resume", file)
        assert (res.exit_code, res.stdout) == (2, ""), (file, res.output)
        assert res.stderr == f"ddzspec: error: {message}\n", file
    assert load(tmp_path / "over.json").terminal_seat is None  # left as it was
    res = cli("play", "--seat", "1", "--resume", "fresh.json",
              input="quit\n")
    assert res.exit_code == 0, res.output
    assert "stopped; the deal is saved: ddzspec play --seat 1 --resume fresh.json" in res.output
    assert load(tmp_path / "fresh.json").terminal_seat == 1
    res = cli("play", "--resume", "fresh.json", input="quit\n")
    assert res.exit_code == 0 and "you are seat 1" in res.output, res.output


def test_resume_under_other_rules_is_refused(tmp_path: Path, cli: Any) -> None:
    save = tmp_path / "k.json"
    child = spawn(tmp_path, "--seat", "0", "--seed", "2", "--levels", "1", "--save", str(save))
    child.expect([BID, TURN])
    child.sendline("quit")
    assert finish(child) == 0
    before = save.read_text()
    res = cli("play", "--seat", "0", "--resume", str(save),
              "--rules", "kawu")
    assert res.exit_code == 2
    assert "are not the rules the record was played under (classic" in res.stderr
    assert save.read_text() == before


# found by tester 3
def test_a_terminal_deal_records_its_seat_and_levels_and_resume_holds_to_them(
        tmp_path: Path, cli: Any) -> None:
    from ddzspec.game.record import load
    f = tmp_path / "g.json"

    def play(*args: str) -> tuple[int, str, str]:
        res = cli("play", *args, input="quit\n")
        return res.exit_code, res.stdout, res.stderr
    code, out, err = play("--seat", "1", "--levels", "1,3", "--seed", "4", "--save", str(f))
    assert code == 0, err
    rec = load(f)
    assert (rec.terminal_seat, rec.terminal_levels) == (1, (1, 3, 3))
    assert json.loads(f.read_text())["terminal"] == {"seat": 1, "levels": [1, 3, 3]}
    code, out, err = play("--resume", str(f))  # no --seat needed
    assert code == 0 and "you are seat 1" in out, err
    for args, error in [
            (("--seat", "2"), "--seat 2: the deal in {f} was started with --seat 1"),
            (("--seed", "5"), "--seed 5: the deal in {f} was dealt from seed 4"),
            (("--levels", "2"), "--levels 2: the deal in {f} was started with --levels 1,3,3"),
            (("--without", "bomb"), "{f}: the rules given (classic without bomb")]:
        code, _, err = play("--resume", str(f), *args)
        assert code == 2 and err.startswith(f"ddzspec: error: {error.format(f=f)}"), err
    assert load(f).terminal_seat == 1
    # a record without the field (older ddzspec) still reads, and needs --seat
    obj = json.loads(f.read_text())
    del obj["terminal"]
    f.write_text(json.dumps(obj))
    assert load(f).terminal_seat is None
    code, _, err = play("--resume", str(f))
    assert code == 2 and "does not say which seat is yours" in err and "--seat N" in err
    code, out, _ = play("--resume", str(f), "--seat", "1", "--levels", "2")
    assert code == 0 and load(f).terminal_levels == (2, 2, 2)


# found by tester 3
def test_an_unwritable_data_folder_is_a_located_one_line_error(
        monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/proc/nope")
    code, _, err = cli("play", "--seat", "0")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("ddzspec: error: /proc/nope/ddzspec/games: cannot create the folder "
                          "where deals are saved:")
    assert "--save FILE" in err and "XDG_DATA_HOME" in err and "Errno" not in err


def test_a_doubling_round_is_a_prompt(tmp_path: Path) -> None:
    """examples/qq-bidding.rules: call and rob in the QQ order, then the doubling round, whose
    choices are typed by name; the record replays with the person's choice."""
    save = tmp_path / "deal.json"
    child = spawn(tmp_path, "--rules", "examples/qq-bidding.rules", "--seat", "0",
                  "--seed", "1", "--levels", "1", "--save", str(save))
    prompt = re.compile(r"seat (\d) (bid|call|rob|double) \[([^\]]*)\]> ")
    doubled = False
    for _ in range(200):
        i = child.expect([prompt, TURN, END])
        if i == 2:
            break
        if i == 1:
            play_first_hint(child)
            continue
        kind, choices = child.match.group(2), child.match.group(3)
        if kind == "double":
            assert choices == "no/double/super"
            child.sendline("triple")
            child.expect("not a choice: 'triple'; type one of no, double, super")
            child.expect(prompt)
            child.sendline("super")
            child.expect(r"you: super \(x4; multiplier x\d+\)")
            doubled = True
        else:
            child.sendline(choices.split("/")[0])
    assert doubled
    assert finish(child) == 0
    rec = json.loads(save.read_text())
    assert {"seat": 0, "double": 4} in rec["actions"]
    assert resume(load(save)).over


@pytest.mark.parametrize("rules, before, after", [
    # examples/show-cards.rules: the first prompt asks to show the hand, by name
    ("examples/show-cards.rules", [], [r"you: show \(x2; multiplier x2\)", r"you show: "]),
    # rules/happy.rules: the first prompt comes before the deal (no hand yet); the person
    # shows x5 and its hand is printed face up only once the hands are dealt
    ("happy", ["your hand: not dealt yet"],
     [r"you: show \(x5; multiplier x5\)\r?\n", r"the hands are dealt\r?\nyou show: "]),
], ids=["after-deal", "before-deal"])
def test_show_cards_is_a_prompt(tmp_path: Path, rules: str, before: list[str],
                                after: list[str]) -> None:
    child = spawn(tmp_path, "--rules", rules, "--seat", "0",
                  "--seed", "4", "--levels", "1", "--save", str(tmp_path / "deal.json"))
    for said in before:
        child.expect(said)
    child.expect(re.compile(r"seat 0 show \[no/show\]> "))
    child.sendline("show")
    for said in after:
        child.expect(said)
    child.sendline("quit")
    assert finish(child) == 0


def test_the_status_shows_the_seats_own_settlement_itemised(tmp_path: Path) -> None:
    """QQ, scope pair (examples/qq-bidding.rules): the landlord (seat 1) doubles, seat 2
    super-doubles (x4, its own pair), seat 0 does not. Seat 2 is shown its settlement at
    2 x 4 = 8, not the table's x2; the landlord each of its two."""
    from ddzspec.cli.seat import TerminalSeat
    from ddzspec.game import Action, GameState
    g = GameState.new(load_rules("examples/qq-bidding.rules"), seed=5, first=0)
    for a in (Action.call(0, False), Action.call(1), Action.rob(2, False), Action.double(1, 2),
              Action.double(2, 4), Action.double(0, 1)):
        g = g.apply(a)
    said: list[str] = []
    peasant = TerminalSeat(g, 2, [], tmp_path / "d.json", "en", say=said.append)
    assert ("your settlement with the landlord: x8 (double x2, super x4 seat 2 only); base 1"
            in peasant.status())
    assert not any(x.startswith("multiplier:") for x in peasant.status())
    landlord = TerminalSeat(g, 1, [], tmp_path / "d.json", "en", say=said.append)
    assert [x for x in landlord.status() if x.startswith("settlement")] == [
        "settlement with seat 0: x2 (double x2); base 1",
        "settlement with seat 2: x8 (double x2, super x4 seat 2 only); base 1"]


# ----------------------------------------------------------------------------- round prompts

HEBEI = load_rules("hebei")
#: A round whose choice names are the terminal's commands (a rules file may name them so).
CLASHING = load_rules_text('rules clash "choices named as commands" extends classic\n'
                           "round double {\n    after talon\n    order landlord peasants\n"
                           "    choices no 1 quit 2 counter 4\n    scope table\n}\n")


def at_the_landlords_answer(rules: Rules) -> GameState:
    """The top bid, then (under hebei) the first peasant kicks and the second does not: the
    landlord is to answer (no x1, counter x2)."""
    g = GameState.new(rules, seed=20)
    g = g.apply(Action.bid(g.turn, 3))
    while g.phase is Phase.DOUBLING and g.turn != g.landlord:
        first = g.turn == (g.landlord + 1) % 3
        g = g.apply(Action.double(g.turn, 2 if first else 1))
    return g


def seat_typing(state: GameState, lines: list[str], tmp_path: Path) -> tuple[TerminalSeat,
                                                                             list[str]]:
    """The terminal seat at ``state``'s turn, reading ``lines``, and what it says."""
    said: list[str] = []
    typed = iter(lines)

    def ask(prompt: str) -> str:
        return next(typed)

    players = [player_for(1, f"t:{s}") for s in range(3)]
    assert state.turn is not None
    return TerminalSeat(state, state.turn, players, tmp_path / "deal.json", "en", ask=ask,
                        say=said.append), said


@pytest.mark.parametrize("word", ["counter", "2", "x2", "X2"])
def test_the_landlord_counter_kicks_by_name_or_factor(word: str, tmp_path: Path) -> None:
    g = at_the_landlords_answer(HEBEI)
    assert g.turn == g.landlord and [a.value for a in g.legal_actions()] == [1, 2]
    seat, said = seat_typing(g, [":counter", word], tmp_path)
    seat.bid_turn()
    # ":counter" is the command (the unseen cards: 54 - 20); the word the choice: the counter-kick
    assert any(line.startswith("unseen (34): ") for line in said)
    assert [(f.kind, f.seat) for f in seat.state.factors][-1] == ("counter", g.landlord)
    assert seat.state.phase is Phase.PLAY


def test_help_at_a_round_prompt_lists_its_choices_then_the_commands(tmp_path: Path) -> None:
    g = at_the_landlords_answer(HEBEI)
    seat, said = seat_typing(g, ["help", "4", "no"], tmp_path)
    seat.bid_turn()
    at = said.index("this round's choices (type the name, or the factor: 2 or x2):")
    assert said[at + 1:at + 4] == ["  no       x1", "  counter  x2",
                                  "or a command (type :NAME when a choice has the same name):"]
    assert "  counter  the cards you have not seen, per rank" in said[at + 4:]
    assert "not a choice: '4'; type one of no, counter" in said  # no choice has factor 4
    assert [f.kind for f in seat.state.factors] == ["kick"]  # 'no': nothing added


def test_choices_named_as_commands_are_choices_and_the_commands_take_a_colon(
        tmp_path: Path) -> None:
    g = GameState.new(CLASHING, seed=20)
    g = g.apply(Action.bid(g.turn, 3))
    assert g.phase is Phase.DOUBLING and g.turn == g.landlord
    seat, said = seat_typing(g, ["quit"], tmp_path)
    seat.bid_turn()  # 'quit' is the landlord's choice x2, not the end of the game
    assert [(f.kind, f.times) for f in seat.state.factors] == [("quit", 2)]
    peasant = seat.state
    assert peasant.turn is not None and peasant.turn != g.landlord
    seat, said = seat_typing(peasant, [":counter", "counter"], tmp_path)
    seat.bid_turn()
    assert any(line.startswith("unseen (34): ") for line in said)  # 54 - 17 - the talon 3
    assert [(f.kind, f.times) for f in seat.state.factors][-1] == ("counter", 4)
    seat, said = seat_typing(seat.state, [":quit"], tmp_path)
    with pytest.raises(SeatQuit):
        seat.bid_turn()


def test_a_huge_number_at_the_bid_prompt_is_not_a_choice(tmp_path: Path) -> None:
    # int() refuses over 4300 digits: the prompt says "not a choice" and asks again
    g = GameState.new(HEBEI, seed=20)
    seat, said = seat_typing(g, ["9" * 5000, "x2", "3"], tmp_path)
    seat.bid_turn()
    assert sum(line.startswith("not a choice: '999") for line in said) == 1
    assert "not a choice: 'x2'; type one of pass, 1, 2, 3" in said  # a factor only in a round
    assert seat.state.landlord == g.turn


# ------------------------------------------------------- issue 26: wild cards at the prompt

def laizi_landlord_leads() -> GameState:
    """Laizi seed 1: the wild rank is Q; seat 0 bids 3 and leads, holding
    3446778889TTTJQQKKA2 with the talon (its two Qs wild)."""
    g = GameState.new(load_rules("laizi"), seed=1)
    g = g.apply(Action.bid(g.turn, 3))
    assert (g.turn, g.wild, g.hands[0].format()) == (0, (9,), "3446778889TTTJQQKKA2")
    return g


@pytest.mark.parametrize("typed", ["TT**", "TTQQ", "TTQ*", "QTQT"])
def test_a_wild_play_typed_as_held_or_with_stars_is_read_and_scored(typed: str,
                                                                     tmp_path: Path) -> None:
    g = laizi_landlord_leads()
    seat, said = seat_typing(g, ["help", "hint", "hint", "369Q", typed], tmp_path)
    seat.play_turn()
    # the status: the wild rank with its draw's name, each wild card marked in the hand
    assert "wild rank: Q (laizi): its cards are wild, marked * (type them as held or as *)" \
        in said
    assert "your hand (20): 3 44 6 77 888 9 TTT J Q* Q* KK A 2" in said
    assert any("a wild card as held or as *" in line for line in said)  # help
    # hints from the wild legal moves, the smallest first: the single 3, then 3 with a wild
    # card as the pair 33
    assert said[said.index("hint 1/1221: 3 : single 3") + 1] == \
        "hint 2/1221: 3* : pair 33 (wild cards as 3)"
    # 3, 6, 9 and one wild card: no shape of four cards has three ranks and one card more
    # (said once: the explanation's own "no reading" line is not repeated after it)
    assert "refused: 369* is not a legal move: no reading under the rules, whatever rank (but " \
        "a joker) each wild card stands for" in said
    assert not any(line.startswith("no reading") for line in said)
    # TT and the two Qs: the soft bomb TTTT (leading: the bomb comes first in the priority),
    # 20 - 4 = 16 left, x2 for a soft bomb
    assert said[-1] == "you play TT** : bomb TTTT (soft; wild cards as TT) (16 left)"
    assert [(f.kind, f.times, f.cards) for f in seat.state.factors] == [
        ("soft_bomb", 2, "TT**")]
    assert seat.state.hands[0].format() == "3446778889TJKKA2"


def test_an_answer_that_beats_no_reading_is_refused_with_the_reason(tmp_path: Path) -> None:
    g = laizi_landlord_leads()
    g = g.apply(Action(ActionKind.PLAY, 0, 0, Cards.parse("TTQQ")))
    assert g.turn == 1 and g.hands[1].format() == "334455689JJJAA222"  # no wild card
    seat, said = seat_typing(g, ["hint", "JJJ", "pass"], tmp_path)
    seat.play_turn()
    assert "trick: seat 0 TT** as TTTT" in said  # as held and as read
    assert "to beat: bomb TTTT (soft; wild cards as TT)" in said
    assert "multiplier: x2 (soft-bomb TT** x2); base 3" in said
    assert "hint 1/1: pass" in said  # nothing of seat 1 beats the soft bomb
    assert "refused: JJJ (trio JJJ) does not beat bomb TTTT (soft; wild cards as TT): no " \
        "reading of it does" in said
    assert said[-1] == "you: pass"
    assert seat.state.hands[1] == g.hands[1] and seat.state.turn == 2


def test_a_wild_rank_drawn_later_is_announced_when_drawn(tmp_path: Path) -> None:
    """Laizi with its rank drawn once the landlord is known: not shown while bidding (the Qs
    unmarked), announced with the bid that makes the landlord."""
    text = (data_dir("rules") / "laizi.rules").read_text()
    late = load_rules_text(text.replace("draw laizi after deal", "draw laizi after landlord")
                           .replace('rules laizi "', 'rules late "'))
    g = GameState.new(late, seed=1)
    assert g.wild_shown == () and g.wild == (9,)  # drawn with the deal, shown later
    seat, said = seat_typing(g, ["3"], tmp_path)
    seat.bid_turn()
    assert "your hand (17): 3 4 77 888 9 TTT QQ KK A 2" in said
    assert not any(line.startswith("wild rank") for line in said[:-1])
    assert said[-1].split("\n")[:2] == ["you: bid 3", "wild rank: Q (laizi)"]


def declared_landlord_leads() -> GameState:
    """examples/laizi-declared.rules (laizi, ``reading declared``) seed 1: laizi's deal and
    draw (the rules' digest leaves the wild section out), seat 0 leads with two wild Qs."""
    rules = load_rules(str(Path(__file__).parents[2] / "examples" / "laizi-declared.rules"))
    g = GameState.new(rules, seed=1)
    g = g.apply(Action.bid(g.turn, 3))
    assert (g.turn, g.wild, g.hands[0].format()) == (0, (9,), "3446778889TTTJQQKKA2")
    return g


# TT and two wild Qs, leading: the soft bomb TTTT, or the trio TTT with a single of each other
# non-joker rank (12 of the 13 ranks 3..2; none is T): 13 readings, in substitution order
# (the wild cards stand for a T and the single, written in rank order)
TT_READINGS = [f"trio_single TTT+{r} (wild cards as {r}T)" for r in "3456789"] + [
    "bomb TTTT (soft; wild cards as TT)"] + [
    f"trio_single TTT+{r} (wild cards as T{r})" for r in "JQKA2"]


def test_a_declared_play_with_several_readings_asks_which(tmp_path: Path) -> None:
    g = declared_landlord_leads()
    seat, said = seat_typing(g, ["help", "hint", "hint", "TT**", "", "TTQQ", "x", "14", "8"],
                             tmp_path)
    seat.play_turn()
    assert any("333*=3333 states the reading" in line for line in said)  # help
    # one hint per (play, reading), written as typed: the single 3, then 3 and a wild card as
    # the pair 33 (1,902 (play, reading) pairs against laizi's 1,221 plays)
    assert said[said.index("hint 1/1902: 3 : single 3") + 1] == \
        "hint 2/1902: 3*=33 : pair 33 (wild cards as 3)"
    ask = said.index("TT** has 13 readings here; which reading?")
    assert said[ask + 1:ask + 14] == [f"  {i}: {r}" for i, r in enumerate(TT_READINGS, 1)]
    # empty: back to the prompt, the deal unchanged; TTQQ (the Qs typed as held) asks again
    assert said.count("TT** has 13 readings here; which reading?") == 2
    assert said.count("not a reading: type a number 1 to 13, or TT**=3TTT") == 2  # x, 14
    assert said[-1] == "you play TT** : bomb TTTT (soft; wild cards as TT) (16 left)"
    assert [(f.kind, f.times) for f in seat.state.factors] == [("soft_bomb", 2)]
    assert seat.state.log[-1].declared == Cards.parse("TTTT")


def test_a_declared_reading_typed_directly_is_played_without_asking(tmp_path: Path) -> None:
    g = declared_landlord_leads()
    seat, said = seat_typing(g, ["TT**=TTTT9", "TTQQ=TTTJ"], tmp_path)
    seat.play_turn()
    assert "not cards: column 6: TTTT9: the cards TT** cannot make it (their natural cards and " \
        "2 wild cards)\n  TT**=TTTT9\n       ^" in said
    assert not any("which reading?" in line for line in said)
    # the trio TTT with the single J: no factor; 20 - 4 = 16 left
    assert said[-1] == "you play TT** : trio_single TTT+J (wild cards as TJ) (16 left)"
    assert seat.state.factors == () and seat.state.log[-1].declared == Cards.parse("TTTJ")


def test_a_declared_play_with_one_reading_is_played_without_asking(tmp_path: Path) -> None:
    g = declared_landlord_leads()
    seat, said = seat_typing(g, ["3"], tmp_path)  # a natural single: one reading
    seat.play_turn()
    assert not any("which reading?" in line for line in said)
    assert said[-1] == "you play 3 : single 3 (19 left)"
