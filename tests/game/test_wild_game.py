"""A laizi deal in the library game (issue 26): the seeded draw of the wild rank, plays read
under the file's ``strongest`` policy, bomb classes' factors in the settlement, records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from wild_helpers import declared_laizi

from ddzspec.cards import Rank
from ddzspec.errors import (
    DoesNotBeatError,
    GameError,
    LastPlayOnlyError,
    NotAMoveError,
    RecordError,
    UnplayableRulesError,
)
from ddzspec.game import Action, Game, GameState
from ddzspec.game.dealing import draw_wild
from ddzspec.game.record import Record, record_of, replay, resume, transcript
from ddzspec.rules import load_rules

LAIZI = load_rules("laizi")
SEVEN = Rank.SEVEN.index

# seed 11 draws 7 (pinned below); seat 0 holds, with the talon 9KA, 555+7 (a soft bomb),
# 89TJQKA (a straight), 333+66 and 444+9 (trios with kickers): four leads and it is out
HANDS = ["33344455566789TJQ", "345667778889TTTJJ", "9JQQQKKKAAA2222BR"]
TALON = "9KA"


def deal() -> GameState:
    return GameState.new(LAIZI, seed=11, hands=HANDS, talon=TALON, first=0)


def test_the_draw_is_seeded_and_shown() -> None:
    st = deal()
    assert st.wild == (SEVEN,) == draw_wild(LAIZI, 11, 0)
    assert GameState.new(LAIZI, seed=11).wild == (SEVEN,)
    # a redeal draws again, from the attempt's own generator
    assert [draw_wild(LAIZI, 11, i) for i in range(3)] == \
        [draw_wild(LAIZI, 11, i) for i in range(3)]
    for seat in range(3):
        v = st.view(seat)
        assert v.wild == (SEVEN,)
        assert v.to_json()["wild"] == ["7"]
    assert GameState.new(load_rules("classic"), seed=11).wild == ()
    assert "wild" not in GameState.new(load_rules("classic"), seed=11).view(0).to_json()


def landlord_takes(st: GameState) -> GameState:
    st = st.apply(Action.bid(0, 3))
    assert st.landlord == 0 and len(st.hands[0]) == 20
    return st


def test_a_hand_worked_laizi_deal_with_a_soft_bomb() -> None:
    st = landlord_takes(deal())
    leads = ["5557", "89TJQKA", "33366", "4449"]
    for cards in leads:
        st = st.apply(Action.play(0, cards))
        if cards == "5557":
            assert st.last_wild is not None
            assert st.last_wild.describe() == "bomb 5555 (soft; wild cards as 5)"
        if st.over:
            break
        st = st.apply(Action.pass_(1)).apply(Action.pass_(2))
    assert st.over and st.result is not None
    r = st.result
    # multiplier: soft bomb 2 x spring 2 (no peasant played a card) = 4; S = base 3 (the bid)
    # x 4 = 12; each peasant pays S = 12 to the landlord, who gets 2 * 12 = 24
    assert [(f.kind, f.times, f.cards) for f in r.factors] == \
        [("soft_bomb", 2, "555*"), ("spring", 2, None)]
    assert r.multiplier == 2 * 2 and r.stake == 3 * 4
    assert r.scores == (24, -12, -12)
    assert r.spring


def test_a_rejected_wild_play_leaves_the_state_unchanged() -> None:
    g = Game(landlord_takes(deal()))
    g.act(Action.play(0, "4449"))  # trio 444 with the single 9
    before = g.state
    with pytest.raises(DoesNotBeatError,
                       match=r"^3\* \(pair 33 \(wild cards as 3\)\) does not beat "
                       r"trio_single 444\+9: no reading of it does$"):
        g.act(Action.play(1, "37"))  # a pair 33 at best: no trio with a kicker, no bomb
    with pytest.raises(NotAMoveError, match="not a legal move"):
        g.act(Action.play(1, "3J7"))
    assert g.state is before and g.state == before
    # answering, the reading of the trick's type and size with the highest body: 5 + 777
    # reads as the trio 222 with the single 5 (not the soft bomb 5555)
    g.act(Action.play(1, "5777"))
    assert g.state.last_wild is not None
    assert g.state.last_wild.describe() == "trio_single 222+5 (wild cards as 222)"
    assert g.state.factors == ()


def test_legal_actions_come_from_the_wild_moves() -> None:
    st = landlord_takes(deal())
    plays = {a.cards.format() for a in st.legal_actions() if a.cards is not None}
    assert "5557" in plays and "7" in plays
    for a in st.legal_actions()[:20]:
        st.apply(a)  # every listed action is accepted


def test_a_laizi_record_round_trips_and_replays() -> None:
    st = landlord_takes(deal())
    st = st.apply(Action.play(0, "5557")).apply(Action.pass_(1)).apply(Action.pass_(2))
    rec = record_of(st)
    obj = json.loads(rec.dumps())
    assert obj["version"] == 4 and obj["deal"]["wild"] == [["7"]]
    assert any(line.startswith("wild {") for line in obj["rules"]["text"])
    back = Record.from_json(obj)
    assert resume(back) == st
    rep = replay(back)
    lines = transcript(rep.initial, rep.steps)
    assert "  wild rank (laizi, drawn after the deal): 7" in lines
    assert any("555*: bomb 5555 (soft; wild cards as 5)" in line for line in lines)
    # an explicit deal's wild rank is the deal's own: with 8 stated, 5557 is a trio and single
    obj["deal"]["wild"] = [["8"]]
    other = replay(Record.from_json(obj))
    assert other.ok and other.state.wild == (Rank.EIGHT.index,)
    played = other.steps[1].state.last_wild  # after the play (the trick then ends)
    assert played is not None and played.describe() == "trio_single 555+7"
    del obj["deal"]["wild"]
    with pytest.raises(Exception, match="needs \"wild\""):
        Record.from_json(obj)


def test_a_redeal_draws_again_and_its_rank_is_checked() -> None:
    st = deal()
    for seat in range(3):
        st = st.apply(Action.bid(seat, 0))  # all pass: the deal is void, dealt again
    assert st.attempt == 1 and st.wild == draw_wild(LAIZI, 11, 1)
    obj = json.loads(record_of(st).dumps())
    assert len(obj["deal"]["wild"]) == 2
    assert resume(Record.from_json(obj)) == st
    other = "3" if obj["deal"]["wild"][1] != ["3"] else "4"
    obj["deal"]["wild"][1] = [other]
    bad = replay(Record.from_json(obj))
    # the third pass (action 2) voids attempt 0; the record ends there, so no action of
    # attempt 1 is to blame: the error has no index, and the redeal is replayed
    assert bad.error_index is None and bad.error is not None and bad.state == st
    assert f"wild rank {other} for deal attempt 1 is not the one the deal draws" in bad.error
    assert "from the redeal of an explicit deal, seed 11" in bad.error
    # with a bid of attempt 1 recorded, that bid (action 3, its first) is the one reported
    obj["actions"].append({"seat": st.turn, "bid": 0})
    bad = replay(Record.from_json(obj))
    assert bad.error_index == 3 and bad.problem is not None
    assert bad.problem.startswith(f"action 3: the record's wild rank {other} for deal attempt 1")


def seeded_record() -> dict[str, Any]:
    """The JSON record of seed 1 under laizi (Q drawn), two bids in."""
    st = GameState.new(LAIZI, seed=1)
    assert st.wild == (Rank.QUEEN.index,)
    st = st.apply(Action.bid(st.turn, 0)).apply(Action.bid((st.turn + 1) % 3, 0))
    obj: dict[str, Any] = json.loads(record_of(st).dumps())
    assert obj["deal"] == {"seed": 1, "wild": [["Q"]]}
    return obj


@pytest.mark.parametrize(("wild", "message"), [
    ([[]], r"\"deal\" \"wild\": deal attempt 0 lists no wild rank$"),
    ([["Q", "K"]], r"\"deal\" \"wild\": deal attempt 0 lists 2 ranks, the rules draw 1$"),
    ([["B"]], r"\"deal\" \"wild\": deal attempt 0: 'B' is a joker: a joker is never a wild "
              r"rank$"),
    ([["1"]], r"deal attempt 0: '1' is not a rank \(3 … 9, T or 10, J, Q, K, A, 2\)$"),
])
def test_a_malformed_wild_list_is_a_record_error(wild: list[list[str]], message: str) -> None:
    obj = seeded_record()
    obj["deal"]["wild"] = wild
    with pytest.raises(RecordError, match=message):
        replay(Record.from_json(obj))


def test_wild_ranks_are_written_as_cards_are() -> None:
    obj = seeded_record()
    for spelling in ("Q", "q"):
        obj["deal"]["wild"] = [[spelling]]
        assert replay(Record.from_json(obj)).ok
    obj["deal"]["wild"] = [["10"]]  # T, spelt as a card may be: read, and not the rank drawn
    bad = replay(Record.from_json(obj))
    assert bad.problem == ("action 0: the record's wild rank T for deal attempt 0 is not the "
                           "one the deal draws (Q, from seed 1)")


def test_a_wild_list_of_more_attempts_than_played_is_not_an_actions_error() -> None:
    obj = seeded_record()
    obj["deal"]["wild"] = [["Q"], ["K"]]
    bad = replay(Record.from_json(obj))
    assert bad.error_index is None and len(bad.steps) == 2
    assert bad.problem == "\"deal\" \"wild\" lists 2 deal attempts; the actions play 1"


def test_a_classic_record_cannot_claim_wild_ranks() -> None:
    st = GameState.new(load_rules("classic"), seed=1)
    obj = json.loads(record_of(st).dumps())
    assert obj["version"] == 2 and "wild" not in obj["deal"]
    obj["version"] = 4
    obj["deal"]["wild"] = [["Q"]]
    with pytest.raises(RecordError, match=r"^a version 4 record \(wild ranks, \"deal\" "
                       r"\"wild\"\) of classic, which have no wild cards"):
        replay(Record.from_json(obj))
    del obj["deal"]["wild"]
    with pytest.raises(RecordError, match="needs \"wild\""):
        Record.from_json(obj)
    laizi = seeded_record()
    laizi["version"] = 3
    del laizi["deal"]["wild"]
    with pytest.raises(RecordError, match=r"^a version 3 record of laizi, which have wild "
                       r"cards: their records are version 4"):
        replay(Record.from_json(laizi))


def test_an_explicit_deal_states_its_wild_rank() -> None:
    queen = Rank.QUEEN.index
    st = GameState.new(LAIZI, hands=HANDS, talon=TALON, wild=["Q"])
    assert st.wild == (queen,) and st.start.wild == (queen,)
    assert GameState.new(LAIZI, hands=HANDS, talon=TALON, wild=[queen]) == st
    # default: drawn from the seed, 0 without one
    assert GameState.new(LAIZI, hands=HANDS, talon=TALON).wild == draw_wild(LAIZI, 0, 0)
    st = landlord_takes(st).apply(Action.play(0, "QJ"))  # Q wild: the pair JJ
    assert st.last_wild is not None and st.last_wild.describe() == "pair JJ (wild cards as J)"
    obj = json.loads(record_of(st).dumps())
    assert obj["deal"]["seed"] is None and obj["deal"]["wild"] == [["Q"]]
    assert resume(Record.from_json(obj)) == st
    for bad, message in [(["K", "Q"], "2 wild ranks given; laizi draws 1 \\(laizi\\)"),
                         (["R"], "'R' is a joker"), ([99], "wild rank 99: the draw laizi")]:
        with pytest.raises(GameError, match=message):
            GameState.new(LAIZI, hands=HANDS, talon=TALON, wild=bad)
    with pytest.raises(GameError, match="wild ranks given to a shuffled deal"):
        GameState.new(LAIZI, seed=1, wild=["Q"])
    with pytest.raises(GameError, match="classic has no wild cards"):
        GameState.new(load_rules("classic"), hands=HANDS, talon=TALON, wild=["Q"])


def test_a_redeal_of_an_explicit_deal_says_its_seed_without_none() -> None:
    st = GameState.new(LAIZI, hands=HANDS, talon=TALON, wild=["Q"])
    for seat in range(3):
        st = st.apply(Action.bid(seat, 0))
    obj = json.loads(record_of(st).dumps())
    assert obj["deal"]["wild"][0] == ["Q"] and len(obj["deal"]["wild"]) == 2
    assert resume(Record.from_json(obj)) == st
    obj["deal"]["wild"][1] = ["3"] if obj["deal"]["wild"][1] != ["3"] else ["4"]
    bad = replay(Record.from_json(obj))
    assert bad.error is not None and "None" not in bad.error
    assert "from the redeal of an explicit deal, seed 0)" in bad.error


def test_a_record_play_may_write_wild_cards_as_the_transcript_does() -> None:
    st = landlord_takes(deal())
    st = st.apply(Action.play(0, "5557"))  # 7 is wild: the transcript writes 555*
    obj = json.loads(record_of(st).dumps())
    assert obj["actions"][-1] == {"seat": 0, "play": "5557"}
    obj["actions"][-1]["play"] = "555*"
    assert resume(Record.from_json(obj)) == st
    obj["actions"][-1]["play"] = "55**"  # two 7s: seat 0 holds one
    bad = replay(Record.from_json(obj))
    assert bad.error_index == 1 and bad.error is not None
    assert "seat 0 does not hold these cards: it needs 2 x 7" in bad.error
    classic = json.loads(record_of(GameState.new(load_rules("classic"), hands=HANDS,
                                                 talon=TALON).apply(Action.bid(0, 3))
                                   .apply(Action.play(0, "5557"))).dumps())
    classic["actions"][-1]["play"] = "555*"  # no wild rank: no wild card
    bad = replay(Record.from_json(classic))
    assert bad.error_index == 1 and bad.error is not None and "'*' is a wild card" in bad.error


DECLARED = load_rules(str(Path(__file__).parents[2] / "examples" / "laizi-declared.rules"))


def declared_deal() -> GameState:
    st = GameState.new(DECLARED, seed=11, hands=HANDS, talon=TALON, first=0)
    return st.apply(Action.bid(0, 3))


def test_two_wild_ranks_are_refused_by_the_game(tmp_path: Path) -> None:
    f = tmp_path / "two.rules"
    laizi = Path(LAIZI.path).read_text(encoding="utf-8")
    wild = laizi[laizi.index("wild {"):].replace("count 1", "count 2").replace(
        "    bomb bomb", "    draw tian after deal from 3 .. 2\n    bomb bomb")
    f.write_text(f'rules two extends "{LAIZI.path}"\n{wild}', encoding="utf-8")
    with pytest.raises(UnplayableRulesError) as e:
        GameState.new(load_rules(str(f)), seed=1)
    # said plainly, and not sent to `ddzspec check`, which refuses two wild ranks too
    assert str(e.value).endswith("these rules cannot be played out: two wild ranks (tiandi "
                                 "laizi) are not played yet: a deal plays one wild rank; this "
                                 "file draws 2 (issue 26)")
    assert "ddzspec check" not in str(e.value)
    GameState.new(declared_laizi(tmp_path), seed=1)  # reading declared is played


def test_a_declared_reading_is_played_as_stated() -> None:
    st = declared_deal()
    assert st.wild == (SEVEN,)
    # 555 + a wild 7: a soft bomb 5555 or a trio 555 with any single (3..2: 12 ranks but 5)
    bomb = st.apply(Action.play(0, "5557", "5555"))
    assert bomb.last_wild is not None
    assert bomb.last_wild.describe() == "bomb 5555 (soft; wild cards as 5)"
    assert [(f.kind, f.times) for f in bomb.factors] == [("soft_bomb", 2)]
    trio = st.apply(Action.play(0, "5557", "555A"))
    assert trio.last_wild is not None and trio.factors == ()
    assert trio.last_wild.describe() == "trio_single 555+A (wild cards as A)"
    # answering the trio 555+A, the stated reading must beat it: a trio above 555 with
    # one single, or a bomb; seat 1 holds 888 (8 8 8) and 7 7 7 (wild)
    ans = trio.apply(Action.play(1, "8887", "888J"))
    assert ans.last_wild is not None and ans.last_wild.describe() == \
        "trio_single 888+J (wild cards as J)"
    # 3 + three wild 7s as the trio 444 with the single 3: below 555
    with pytest.raises(DoesNotBeatError, match=r"^3\*\*\* \(trio_single 444\+3 \(wild cards "
                       r"as 444\)\) does not beat trio_single 555\+A"):
        trio.apply(Action.play(1, "3777", "3444"))


def test_a_play_with_several_readings_needs_one_stated() -> None:
    g = Game(declared_deal())
    before = g.state
    with pytest.raises(NotAMoveError) as e:
        g.act(Action.play(0, "5557"))
    # 13 readings: the soft bomb 5555 and the trio 555 with a single of each other non-joker
    # rank (13 ranks 3..2, less 5): 1 + 12
    assert "555*: 13 readings to lead with; state which (555*=3555)" in str(e.value)
    assert "bomb 5555 (soft; wild cards as 5)" in str(e.value)
    assert "trio_single 555+2 (wild cards as 2)" in str(e.value)
    # what 555 and one wild card cannot make: two 6s (one wild card), five or three cards, a
    # joker (a wild card never stands for one)
    for declared in ["5566", "55555", "555", "555B"]:
        with pytest.raises(NotAMoveError, match=f"555\\* as {declared}: the cards cannot "
                           f"make {declared} under the rules"):
            g.act(Action.play(0, "5557", declared))
        assert g.state is before
    assert g.state == before
    # one legal reading: a single 3 needs no statement; nor does 9TJQK (a straight only)
    g.act(Action.play(0, "3"))
    assert g.state.last_wild is not None and g.state.last_wild.describe() == "single 3"


def test_a_stated_reading_under_strongest_must_be_the_policys() -> None:
    st = landlord_takes(deal())
    got = st.apply(Action.play(0, "5557", "5555"))  # leading: the bomb comes first
    assert got.last_wild is not None and got.last_wild.bomb_class is not None
    g = Game(st)
    with pytest.raises(NotAMoveError, match=r"reading strongest takes bomb 5555 \(soft; wild "
                       r"cards as 5\) leading, not 555A"):
        g.act(Action.play(0, "5557", "555A"))
    assert g.state is st
    with pytest.raises(NotAMoveError, match="only under wild rules"):
        Game(GameState.new(load_rules("classic"), seed=1, hands=HANDS, talon=TALON,
                           first=0).apply(Action.bid(0, 3))).act(Action.play(0, "3", "3"))


def test_declared_legal_actions_are_one_per_reading() -> None:
    st = declared_deal()
    acts = [a for a in st.legal_actions() if a.cards == Action.play(0, "5557").cards]
    # the 13 readings of 555 + a wild 7, each stated
    assert len(acts) == 13
    assert {a.declared for a in acts} == \
        {Action.play(0, "5557", "555" + r).declared for r in "3456789TJQKA2"}
    for a in st.legal_actions()[:30]:
        assert a.kind.value == "pass" or a.declared is not None
        st.apply(a)  # every listed action is accepted


def test_an_action_states_its_reading_in_json_and_words() -> None:
    a = Action.play(0, "5557", "5555")
    assert a.to_json() == {"seat": 0, "play": "5557", "as": "5555"}
    assert Action.from_json(a.to_json()) == a
    assert str(a) == "seat 0 plays 5557 as 5555"
    assert Action.from_json({"seat": 0, "play": "5557"}).declared is None
    with pytest.raises(GameError, match=r"\"as\" .* not 3"):
        Action.from_json({"seat": 0, "play": "5557", "as": 3})
    with pytest.raises(GameError, match="exactly one of"):
        Action.from_json({"seat": 0, "bid": 1, "as": "3"})


def test_a_declared_record_saves_and_replays_the_reading() -> None:
    st = declared_deal().apply(Action.play(0, "5557", "555A"))
    obj = json.loads(record_of(st).dumps())
    assert obj["version"] == 4
    assert obj["actions"][-1] == {"seat": 0, "play": "5557", "as": "555A"}
    assert resume(Record.from_json(obj)) == st
    rep = replay(Record.from_json(obj))
    lines = transcript(rep.initial, rep.steps)
    assert any("555*: trio_single 555+A (wild cards as A)" in line for line in lines)
    obj["actions"][-1]["as"] = "5558"  # another reading: replays as that one
    assert resume(Record.from_json(obj)).last_wild.describe() == \
        "trio_single 555+8 (wild cards as 8)"  # type: ignore[union-attr]
    obj["actions"][-1]["as"] = "5566"
    bad = replay(Record.from_json(obj))
    assert bad.error_index == 1 and bad.error is not None and "cannot make 5566" in bad.error
    del obj["actions"][-1]["as"]  # several readings and none stated
    bad = replay(Record.from_json(obj))
    assert bad.error_index == 1 and bad.error is not None and "13 readings" in bad.error


def test_classic_records_stay_version_2_without_wild() -> None:
    obj = json.loads(record_of(GameState.new(load_rules("classic"), seed=11)).dumps())
    assert obj["version"] == 2 and "wild" not in obj["deal"]


def test_bombs_answer_by_class_then_rank_and_multiply_by_class() -> None:
    st = landlord_takes(deal()).apply(Action.play(0, "5557"))  # soft bomb 5555
    st = st.apply(Action.play(1, "8887"))  # soft bomb 8888: same class, higher rank
    assert st.last_wild is not None and st.last_wild.describe() == \
        "bomb 8888 (soft; wild cards as 8)"
    with pytest.raises(DoesNotBeatError):
        st.apply(Action.play(2, "QQQ"))  # a trio is below the bomb line
    st = st.apply(Action.play(2, "2222"))  # hard bomb: above every soft bomb (rocket > pure >
    assert st.last_wild is not None and st.last_wild.bomb_class is not None  # hard > soft)
    assert st.last_wild.bomb_class.value == "hard"
    assert [(f.kind, f.times, f.seat) for f in st.factors] == \
        [("soft_bomb", 2, 0), ("soft_bomb", 2, 1), ("hard_bomb", 4, 2)]
    assert st.multiplier == 2 * 2 * 4


@pytest.mark.parametrize("declared", [False, True])
def test_the_view_shows_each_trick_play_as_held_and_as_read(declared: bool) -> None:
    st = declared_deal() if declared else landlord_takes(deal())

    def play(seat: int, cards: str, reading: str) -> Action:
        return Action.play(seat, cards, reading if declared else None)
    # 555 and a wild 7 as the soft bomb 5555; 888 and a wild 7 as 8888; a pass
    st = st.apply(play(0, "5557", "5555")).apply(play(1, "8887", "8888")).apply(
        Action.pass_(2))
    v = st.view(2)
    assert v.trick_plays() == ("555* as 5555", "888* as 8888", None)
    assert v.to_json()["trick"] == [
        {"seat": 0, "play": "5555", "shown": "555* as 5555"},
        {"seat": 1, "play": "8888", "shown": "888* as 8888"}, {"seat": 2, "play": None}]
    st = st.apply(Action.pass_(0)).apply(play(1, "3", "3"))  # seat 1 leads a natural 3
    assert st.last_wild is not None and st.last_wild.describe() == "single 3"
    assert st.view(0).trick_plays() == ("3",)
    assert st.view(0).to_json()["trick"] == [{"seat": 1, "play": "3", "shown": "3"}]
    classic = GameState.new(load_rules("classic"), seed=11, hands=HANDS, talon=TALON, first=0)
    classic = landlord_takes(classic).apply(Action.play(0, "5556"))
    assert classic.view(1).trick_plays() == ("555+6",)  # the reading's notation
    assert "shown" not in classic.view(1).to_json()["trick"][0]


def test_a_stated_last_play_only_reading_needs_the_whole_hand(tmp_path: Path) -> None:
    f = tmp_path / "lp.rules"
    f.write_text(f'rules lp extends "{DECLARED.path}"\nshapes {{\n    trio = 3 x 1 last_play\n'
                 "}\n", encoding="utf-8")
    st = GameState.new(load_rules(str(f)), seed=11, hands=HANDS, talon=TALON, first=0)
    g = Game(st.apply(Action.bid(0, 3)))
    before = g.state
    # 33 and a wild 7 as the bare trio 333: a last play only, and seat 0 keeps 17 cards
    with pytest.raises(LastPlayOnlyError, match=r"^33\* as 333: 333 reads as a shape played "
                       r"only as a hand's last play"):
        g.act(Action.play(0, "337", "333"))
    with pytest.raises(NotAMoveError, match="no reading under the rules"):
        g.act(Action.play(0, "337"))  # no other reading of three cards
    assert g.state is before


def test_tiandi_draws_two_different_ranks_and_an_explicit_deal_may_not_repeat_one() -> None:
    from ddzspec.game.dealing import explicit_wild
    tiandi = load_rules("tiandi")
    # sky and earth: two ranks, never the same (8 wild cards), each from 3 .. 2, per attempt
    draws = [draw_wild(tiandi, seed, 0) for seed in range(200)]
    assert all(len(d) == 2 and d[0] != d[1] and max(d) <= Rank.TWO.index for d in draws)
    assert len({d[1] for d in draws}) == 13  # every non-joker rank can be the earth rank
    assert explicit_wild(tiandi, ["7", "Q"]) == (SEVEN, Rank.QUEEN.index)
    with pytest.raises(GameError, match="wild rank 7: the draw earth never repeats an earlier "
                                        "draw's rank"):
        explicit_wild(tiandi, ["7", "7"])
    # one draw: laizi's draws are unchanged (seed 11 draws 7, as pinned above)
    assert draw_wild(LAIZI, 11, 0) == (SEVEN,)


def test_tiandi_bombs_multiply_by_their_length_and_class() -> None:
    # tiandi.rules: factor soft 2 hard 4 pure 4 long 6 (VARIANTS.md "Tiandi laizi": 4-soft x2,
    # 4-hard and 4-pure x4, longer bombs x6); the game refuses two wild ranks today, so the
    # settlement's factor is asked of a laizi state with tiandi's rules
    from dataclasses import replace

    from ddzspec.game.scoring import class_kinds, wild_factor
    from ddzspec.wild import parse_wild, readings_with
    tiandi = load_rules("tiandi")
    st = replace(deal(), rules=tiandi)
    ranks = (Rank.NINE.index, Rank.QUEEN.index)

    def factor(text: str) -> tuple[str, int] | None:
        move = parse_wild(text, ranks, tiandi)
        (bomb,) = [r for r in readings_with(move.natural, move.wild_cards, ranks, tiandi)
                   if r.reading.shape == "bomb"]
        f = wild_factor(st, bomb, move, 0)
        return None if f is None else (f.kind, f.times)
    assert factor("77779Q") == ("long_bomb", 6)      # 6 cards: x6
    assert factor("AAAA9") == ("long_bomb", 6)       # 5 cards: x6
    assert factor("AAAQ") == ("soft_bomb", 2)        # 4 cards, natural and wild: x2
    assert factor("2222") == ("hard_bomb", 4)        # 4 natural: x4
    assert factor("9999") == ("pure_bomb", 4)        # 4 wild as themselves: x4
    assert class_kinds(tiandi) == ("soft_bomb", "hard_bomb", "pure_bomb", "long_bomb")
    assert class_kinds(LAIZI) == ("soft_bomb", "hard_bomb", "pure_bomb")
