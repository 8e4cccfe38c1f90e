"""A doubling round declared in a rules file (``round double { … }``): who is asked, in which
order, the choices, refusals that change nothing, the factors with their scope, records and
transcripts, and the computer players. Sources: examples/qq-bidding.rules (Happy Dou Dizhu's
加倍 / 超级加倍) and rules/hebei.rules (kick and counter-kick)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzspec.cards import Cards
from ddzspec.errors import InvalidBidError, OutOfTurnError, WrongPhaseError
from ddzspec.game import Action, ActionKind, GameState, Phase
from ddzspec.game.actions import ROUND_KINDS
from ddzspec.game.record import Record, record_of, replay, transcript
from ddzspec.players import player_for
from ddzspec.players.arena import play_deal
from ddzspec.rules import Rules, load_rules, load_rules_text

QQ = load_rules("examples/qq-bidding.rules")
KICK = load_rules("hebei")
SHOW = load_rules("examples/show-cards.rules")
BLIND = load_rules("examples/blind.rules")


def qq_landlord_1() -> GameState:
    """Seat 0 declines to call, seat 1 calls, seat 2 declines to rob: seat 1 is landlord."""
    g = GameState.new(QQ, seed=5, first=0)
    for a in (Action.call(0, False), Action.call(1), Action.rob(2, False)):
        g = g.apply(a)
    return g


def test_the_landlord_first_then_each_peasant_once() -> None:
    g = qq_landlord_1()
    assert g.phase is Phase.DOUBLING and g.landlord == 1 and g.turn == 1
    assert [a.value for a in g.legal_actions()] == [1, 2, 4]
    assert {a.kind for a in g.legal_actions()} == {ActionKind.DOUBLE}
    g = g.apply(Action.double(1, 2))
    assert g.turn == 2
    g = g.apply(Action.double(2, 4))
    assert g.turn == 0
    g = g.apply(Action.double(0, 1))
    assert g.phase is Phase.PLAY and g.turn == 1 and g.leader == 1
    # landlord x2 (the whole table), seat 2 x4 (its own pair); seat 0's "no" adds nothing
    assert [(f.kind, f.times, f.seat, f.pair) for f in g.factors] == [
        ("double", 2, 1, None), ("super", 4, 2, 2)]
    # the landlord's x2 for the whole table, seat 2's x4 for its own settlement only
    assert (g.multiplier, g.pair_multiplier(2), g.pair_multiplier(0)) == (2, 2 * 4, 2)


def test_refusals_change_nothing() -> None:
    g = qq_landlord_1()
    with pytest.raises(InvalidBidError, match=r"double 3: the choices are no \(1\), "
                       r"double \(2\), super \(4\)"):
        g.apply(Action.double(1, 3))
    with pytest.raises(OutOfTurnError):
        g.apply(Action.double(2, 2))
    with pytest.raises(WrongPhaseError, match="doubling phase"):
        g.apply(Action.play(1, "3"))
    assert g == qq_landlord_1()


def test_kick_asks_the_landlord_only_after_a_kick() -> None:
    g = GameState.new(KICK, seed=4, first=0)
    g = g.apply(Action.bid(0, 3))  # 3 ends the auction: seat 0 is landlord
    assert g.phase is Phase.DOUBLING and g.turn == 1
    quiet = g.apply(Action.double(1, 1)).apply(Action.double(2, 1))
    assert quiet.phase is Phase.PLAY and quiet.factors == () and quiet.turn == 0
    kicked = g.apply(Action.double(1, 2)).apply(Action.double(2, 1))
    assert kicked.phase is Phase.DOUBLING and kicked.turn == 0
    assert [a.value for a in kicked.legal_actions()] == [1, 2]
    done = kicked.apply(Action.double(0, 2))
    # the counter-kick answers the kicker: seat 1's pair 2 x 2; seat 2 did not kick: x1
    assert [(f.kind, f.seat, f.pair) for f in done.factors] == [
        ("kick", 1, 1), ("counter", 0, 1)]
    assert (done.multiplier, done.pair_multiplier(1), done.pair_multiplier(2)) == (1, 4, 1)
    assert done.phase is Phase.PLAY
    # both kick: the counter-kick doubles each pair once more
    both = g.apply(Action.double(1, 2)).apply(Action.double(2, 2)).apply(Action.double(0, 2))
    assert [(f.kind, f.seat, f.pair) for f in both.factors] == [
        ("kick", 1, 1), ("kick", 2, 2), ("counter", 0, 1), ("counter", 0, 2)]
    assert (both.multiplier, both.pair_multiplier(1), both.pair_multiplier(2)) == (1, 4, 4)


def _play_out(g: GameState, level: int) -> GameState:
    """The deal ``g`` played to its end by three computer players of ``level``."""
    players = [player_for(level, 0) for _ in range(3)]
    while not g.over:
        assert g.turn is not None
        g = g.apply(players[g.turn].decide(g.view(g.turn)))
    return g


def test_records_carry_the_round_and_replay() -> None:
    g = qq_landlord_1()
    for a in (Action.double(1, 2), Action.double(2, 4), Action.double(0, 1)):
        g = g.apply(a)
    rec = record_of(g)
    obj = json.loads(rec.dumps())
    assert {"seat": 2, "double": 4} in obj["actions"]
    again = Record.from_json(obj)
    r = replay(again)
    assert r.ok and r.state == g
    lines = transcript(GameState.new(QQ, seed=5, first=0), r.steps)
    text = "\n".join(lines)
    assert ("double round after the talon (landlord peasants; no x1, double x2, super x4; "
            "scope pair):" in text)
    assert ("seat 2 chooses super (x4, its own settlement with the landlord), seat 2's "
            "settlement at x8" in text)


def test_a_seat_view_shows_the_round() -> None:
    g = qq_landlord_1()
    v = g.view(1)
    assert v.phase is Phase.DOUBLING and v.talon is not None
    assert v.to_json()["phase"] == "doubling"


@pytest.mark.parametrize("rules", [QQ, KICK, SHOW, BLIND],
                         ids=["qq", "kick", "show", "blind"])
@pytest.mark.parametrize("level", [1, 2])
def test_computer_players_play_the_round(rules: Rules, level: int) -> None:
    for seed in range(3):
        g = play_deal(rules, [player_for(level, seed) for _ in range(3)], seed)
        assert g.over and g.result is not None
        assert any(a.kind in ROUND_KINDS for a in g.log)


def test_show_cards_once_dealt_then_the_bidding() -> None:
    g = GameState.new(SHOW, seed=6, first=1)
    assert g.phase is Phase.SHOWING and g.turn == 1
    assert [(a.kind, a.value) for a in g.legal_actions()] == [(ActionKind.SHOW, 1),
                                                              (ActionKind.SHOW, 2)]
    hand2 = g.hands[2]
    g = g.apply(Action.show(1, 1)).apply(Action.show(2, 2))
    assert g.shown == (2,) and g.turn == 0
    with pytest.raises(InvalidBidError, match=r"show 5: the choices are no \(1\), show \(2\)"):
        g.apply(Action.show(0, 5))
    g = g.apply(Action.show(0, 1))
    assert g.phase is Phase.BIDDING and g.turn == 1  # the first speaker bids first
    assert [(f.kind, f.times, f.seat) for f in g.factors] == [("show", 2, 2)]
    # the shown hand is public: in every seat's view, not in its unseen cards
    v0 = g.view(0)
    assert v0.shown == ((2, hand2),)
    assert v0.to_json()["shown"] == {"2": hand2.format("en")}
    assert sum(v0.unseen.counts) == 54 - 17 - 17
    assert "shown" not in GameState.new(QQ, seed=6).view(0).to_json()


def test_a_redeal_plays_the_show_round_again_from_scratch() -> None:
    g = GameState.new(SHOW, seed=6, first=1)
    for a in (Action.show(1, 2), Action.show(2, 1), Action.show(0, 1),
              Action.call(1, False), Action.call(2, False), Action.call(0, False)):
        g = g.apply(a)
    assert g.attempt == 1 and g.phase is Phase.SHOWING and g.shown == () and g.factors == ()


def test_shown_hands_replay_and_are_in_the_transcript() -> None:
    g = play_deal(SHOW, [player_for(2, 0) for _ in range(3)], 4)
    rec = record_of(g)
    r = replay(Record.from_json(json.loads(rec.dumps())))
    assert r.ok and r.state == g
    text = "\n".join(transcript(GameState.new(SHOW, seed=4), r.steps))
    assert "show round after the deal (all; no x1, show x2; scope table):" in text
    # the bidding's heading comes after the show round, where the bidding starts
    lines = text.splitlines()
    show_at = lines.index("show round after the deal (all; no x1, show x2; scope table):")
    bid_at = next(i for i, x in enumerate(lines) if x.startswith("bidding (seat "))
    assert show_at < bid_at and lines[bid_at + 1].startswith("  seat ")
    assert [x for x in lines if x.startswith("bidding (")] == [lines[bid_at]]
    if g.shown:
        assert "is shown, multiplier" in text


def test_level_3_samples_a_shown_hand_as_shown() -> None:
    import random

    from ddzspec.players.level3 import sample_deal
    g = GameState.new(SHOW, seed=6, first=1)
    for a in (Action.show(1, 1), Action.show(2, 1), Action.show(0, 2), Action.call(1),
              Action.rob(2, False), Action.rob(0, False)):
        g = g.apply(a)
    for a in (Action.double(1, 1), Action.double(2, 1), Action.double(0, 1)):
        g = g.apply(a)
    assert g.phase is Phase.PLAY and g.landlord == 1
    g = g.apply(g.legal_actions()[0])
    view = g.view(2)  # seat 2 on turn; seat 0 showed its hand
    samples = [sample_deal(view, random.Random(k)) for k in range(5)]
    assert all(x.hands[0] == g.hands[0] and x.hands[2] == g.hands[2] for x in samples)
    # three seats, no undealt cards: the one hidden hand left is the rest, exactly
    assert all(x.hands[1] == g.hands[1] for x in samples)


def test_a_blind_landlord_chooses_before_the_talon_is_shown() -> None:
    g = GameState.new(BLIND, seed=3, first=0)
    talon = g.talon
    g = g.apply(Action.bid(0, 3))
    assert g.phase is Phase.BLIND and g.landlord == 0 and g.turn == 0
    assert len(g.hands[0]) == 17  # not taken yet
    for seat in range(3):  # face down for every seat, the landlord included
        v = g.view(seat)
        assert v.talon is None
        assert sum(v.unseen.counts) == 54 - 17
    with pytest.raises(WrongPhaseError):
        g.apply(Action.play(0, "3"))
    done = g.apply(Action(ActionKind.BLIND, 0, 2))
    assert done.phase is Phase.PLAY and done.turn == 0 and len(done.hands[0]) == 20
    assert done.view(1).talon == talon
    assert [(f.kind, f.times, f.seat) for f in done.factors] == [("blind", 2, 0)]
    rec = record_of(done)
    assert {"seat": 0, "blind": 2} in json.loads(rec.dumps())["actions"]
    r = replay(Record.from_json(json.loads(rec.dumps())))
    assert r.ok and r.state == done
    text = "\n".join(transcript(GameState.new(BLIND, seed=3, first=0), r.steps))
    assert "landlord: seat 0 (base 3); the talon stays face down for now" in text
    assert ("blind round once the landlord is known (landlord; no x1, blind x2; scope table):\n"
            "  seat 0 chooses blind (x2), multiplier 2\n"
            f"  talon {talon.format('en')} shown and taken (20 cards)") in text


def _round_reference(order: str, landlord: int, choices: list[int]) -> tuple[list[int], int]:
    """(the seats asked, in order; the product of the factors) for a round of three seats
    numbered in turn order, from the orders as written in docs/rules-language.md."""
    peasants = [(landlord + 1) % 3, (landlord + 2) % 3]
    seats = {"landlord peasants": [landlord] + peasants,
             "peasants landlord": peasants + [landlord],
             "peasants landlord_if_doubled": peasants, "landlord": [landlord],
             "all": [landlord] + peasants}[order]
    it = iter(choices)
    asked, product = [], 1
    for seat in seats:
        asked.append(seat)
        product *= next(it)
    if order == "peasants landlord_if_doubled" and product > 1:
        asked.append(landlord)
        product *= next(it)
    return asked, product


@settings(max_examples=60, deadline=None)
@given(order=st.sampled_from(["landlord peasants", "peasants landlord",
                              "peasants landlord_if_doubled", "landlord", "all"]),
       landlord=st.integers(0, 2),
       choices=st.lists(st.sampled_from([1, 2, 4]), min_size=4, max_size=4))
def test_every_round_order_matches_a_plain_reference(order: str, landlord: int,
                                                     choices: list[int]) -> None:
    rules = load_rules_text(
        "rules r extends classic\n"
        f"round double {{ after talon  order {order}  choices no 1 double 2 super 4 }}\n",
        "r.rules")
    want_asked, want_product = _round_reference(order, landlord, choices)
    g = GameState.new(rules, seed=1, first=landlord).apply(Action.bid(landlord, 3))
    asked = []
    it = iter(choices)
    while g.phase is Phase.DOUBLING:
        assert g.turn is not None
        asked.append(g.turn)
        g = g.apply(Action.double(g.turn, next(it)))
    assert asked == want_asked
    assert g.phase is Phase.PLAY and g.turn == landlord
    assert g.multiplier == want_product


def test_a_peasants_own_double_settles_its_pair_only() -> None:
    """QQ, scope pair: the landlord doubles x2 (both pairs), seat 2 super-doubles x4 (its own
    pair), seat 0 does not: seat 2 settles at 4 times seat 0's stake, and the deal is
    zero-sum (landlord: the two settlements)."""
    g = qq_landlord_1()
    for a in (Action.double(1, 2), Action.double(2, 4), Action.double(0, 1)):
        g = g.apply(a)
    g = _play_out(g, 2)
    r = g.result
    assert r is not None and r.landlord == 1
    assert abs(r.scores[2]) == 4 * abs(r.scores[0]) and sum(r.scores) == 0
    assert abs(r.scores[0]) == r.base * g.pair_multiplier(0)


@settings(max_examples=25, deadline=None)
@given(path=st.sampled_from(["examples/qq-bidding.rules", "hebei",
                             "examples/show-cards.rules", "examples/blind.rules"]),
       seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 7), min_size=40,
                                                   max_size=40))
def test_random_legal_actions_end_and_replay(path: str, seed: int, picks: list[int]) -> None:
    """Any sequence of legal choices through the rounds ends the deal; its record replays to
    the same state and its points sum to zero."""
    rules = load_rules(path)
    g = GameState.new(rules, seed=seed)
    k = 0
    while not g.over:
        acts = g.legal_actions()
        if g.phase is Phase.PLAY:
            a = acts[0]
        elif g.attempt >= 3:  # three redeals: now the top bid, or a call
            a = acts[-1] if acts[0].kind is ActionKind.BID else acts[0]
        else:
            a = acts[picks[k % len(picks)] % len(acts)]
            k += 1
        g = g.apply(a)
    assert g.result is not None and sum(g.result.scores) == 0
    r = replay(Record.from_json(json.loads(record_of(g).dumps())))
    assert r.ok and r.state == g


# ----------------------------------------------------- show cards before the deal (明牌开始)

HAPPY = load_rules("happy")


def test_a_seat_shows_before_the_deal_unseen_and_its_hand_is_face_up_once_dealt() -> None:
    """rules/happy.rules: x5 before the deal, x2 after it, the first seat to show bids first.
    Seat 1 is drawn first; seat 2 shows blind (x5), seat 0 shows once dealt (x2): the table
    is 5 x 2 = 10, and seat 2, the first to show, opens the bidding, not seat 1."""
    g = GameState.new(HAPPY, seed=6, first=1)
    assert g.phase is Phase.SHOWING and g.turn == 1 and not g.dealt
    assert [(a.kind, a.value) for a in g.legal_actions()] == [(ActionKind.SHOW, 1),
                                                              (ActionKind.SHOW, 5)]
    v = g.view(1)  # nothing dealt yet, for every seat: its own hand included
    assert len(v.hand) == 0 and v.cards_left == (0, 0, 0) and v.shown == ()
    assert v.unseen == Cards(HAPPY.deck) and len(v.unseen) == 54
    assert v.to_json()["round"] == {"kind": "show", "stage": "before deal"}
    hand2 = g.hands[2]
    g = g.apply(Action.show(1, 1)).apply(Action.show(2, 5))
    assert g.shown == (2,) and g.view(0).shown == ()  # shown, but not dealt yet
    g = g.apply(Action.show(0, 1))
    # dealt: the round after the deal asks seats 1 and 0 only (seat 2 is already shown)
    assert g.dealt and g.phase is Phase.SHOWING and g.turn == 1
    assert [a.value for a in g.legal_actions()] == [1, 2]
    assert g.view(0).shown == ((2, hand2),) and g.view(1).hand == g.hands[1]
    assert g.view(0).to_json()["round"] == {"kind": "show", "stage": "after deal"}
    g = g.apply(Action.show(1, 1))
    assert g.turn == 0
    g = g.apply(Action.show(0, 2))
    assert g.phase is Phase.BIDDING and g.first == 2 and g.turn == 2 and g.round is None
    assert [(f.kind, f.times, f.seat) for f in g.factors] == [("show", 5, 2), ("show", 2, 0)]
    assert g.multiplier == 5 * 2 and g.shown == (0, 2)
    assert [a.kind for a in g.legal_actions()] == [ActionKind.CALL, ActionKind.CALL]


def test_nobody_shows_the_drawn_seat_bids_first_and_all_show_skips_the_second_round() -> None:
    g = GameState.new(HAPPY, seed=6, first=1)
    for s in (1, 2, 0, 1, 2, 0):  # no show before the deal, none after it
        g = g.apply(Action.show(s, 1))
    assert g.phase is Phase.BIDDING and g.first == 1 and g.turn == 1 and g.factors == ()
    g = GameState.new(HAPPY, seed=6, first=1)
    for s in (1, 2, 0):  # every seat shows blind: nobody is asked after the deal
        g = g.apply(Action.show(s, 5))
    # 5 x 5 x 5 = 125, capped at happy's 64
    assert g.phase is Phase.BIDDING and g.first == 1 and g.multiplier == 64
    assert [f.times for f in g.factors] == [5, 5, 5]


def test_a_redeal_plays_the_round_before_the_deal_again() -> None:
    g = GameState.new(HAPPY, seed=6, first=1)
    for a in (Action.show(1, 5), Action.show(2, 1), Action.show(0, 1), Action.show(2, 1),
              Action.show(0, 1)):
        g = g.apply(a)
    assert g.turn == 1  # seat 1 showed first
    for s in (1, 2, 0):
        g = g.apply(Action.call(s, False))
    assert g.attempt == 1 and g.phase is Phase.SHOWING and not g.dealt
    assert g.shown == () and g.factors == () and g.round == HAPPY.rounds[0]


def test_both_show_rounds_are_in_the_transcript_and_replay() -> None:
    g = GameState.new(HAPPY, seed=6, first=1)
    for a in (Action.show(1, 1), Action.show(2, 5), Action.show(0, 1), Action.show(1, 1),
              Action.show(0, 1)):
        g = g.apply(a)
    g = _play_out(g, 1)
    r = replay(Record.from_json(json.loads(record_of(g).dumps())))
    assert r.ok and r.state == g
    start = GameState.new(HAPPY, seed=6, first=1)
    lines = transcript(start, r.steps)
    before = lines.index("show round before the deal (all; no x1, show x5; scope table):")
    after = lines.index("show round after the deal (all; no x1, show x2; scope table):")
    assert before < after < lines.index("bidding (seat 2 first):")
    assert lines[before + 1:before + 4] == [
        "  seat 1 chooses no (x1), multiplier 1",
        f"  seat 2 chooses show (x5): its hand {start.hands[2].format('en')} is shown once "
        "dealt, multiplier 5",
        "  seat 0 chooses no (x1), multiplier 5"]
    assert lines[after + 1:after + 3] == ["  seat 1 chooses no (x1), multiplier 5",
                                          "  seat 0 chooses no (x1), multiplier 5"]


# --------------------------------------------------- the counter-kick's reach, as declared

def _kick(reach: str) -> Rules:
    return load_rules_text(
        "rules k extends classic\n"
        "round double { after talon  order peasants landlord_if_doubled  choices no 1 kick 2  "
        f"answer no 1 counter 2{reach}  scope pair }}\n", "k.rules")


@pytest.mark.parametrize("reach, pair2", [("", 2), (" for table", 2), (" for doublers", 1)])
def test_the_counter_kick_reaches_what_the_answer_declares(reach: str, pair2: int) -> None:
    """Seat 0 bids 3 and takes the talon; seat 1 kicks (x2, its pair), seat 2 does not; the
    landlord counters (x2). Its reach is declared: the table (the default), so seat 1
    settles at 2 x 2 = 4 and seat 2 at 2; or only the doublers' pairs (hebei), so seat 1 at
    4 and seat 2 at 1. The settlement: each peasant base 3 x its own multiplier x the
    table's other factors (bombs, spring), the landlord the sum (zero-sum)."""
    g = GameState.new(_kick(reach), seed=4, first=0).apply(Action.bid(0, 3))
    for a in (Action.double(1, 2), Action.double(2, 1), Action.double(0, 2)):
        g = g.apply(a)
    assert (g.pair_multiplier(1), g.pair_multiplier(2)) == (4, pair2)
    r = _play_out(g, 1).result
    assert r is not None and r.base == 3
    sign = 1 if r.winner == "landlord" else -1
    other = 1  # the factors of play: bombs, rocket, spring, all the table's
    for f in r.factors:
        if f.kind not in ("kick", "counter"):
            assert f.pair is None
            other *= f.times
    assert r.scores[1] == -sign * 3 * 4 * other
    assert r.scores[2] == -sign * 3 * pair2 * other
    assert r.scores[0] == -(r.scores[1] + r.scores[2])


# ------------------------------------------------------------ a seat's own settlements

def test_a_seat_sees_the_multiplier_of_its_own_settlements() -> None:
    """QQ, scope pair: the landlord (seat 1) doubles (x2, the table), seat 2 super-doubles
    (x4, its pair), seat 0 does not: seat 2 sees its settlement at 2 x 4 = 8, seat 0 at 2,
    the landlord both; the table's multiplier stays 2."""
    from ddzspec.game.scoring import PairStake
    g = qq_landlord_1().apply(Action.double(1, 2))
    assert g.view(1).stakes == ()  # no factor of one pair yet: the table's applies
    g = g.apply(Action.double(2, 4)).apply(Action.double(0, 1))
    assert g.view(2).stakes == (PairStake(2, 8),)
    assert g.view(0).stakes == (PairStake(0, 2),)
    assert g.view(1).stakes == (PairStake(0, 2), PairStake(2, 8))
    v = g.view(2)
    assert v.multiplier == 2
    assert [(f.kind, f.times) for f in v.factors_of(v.stakes[0])] == [("double", 2),
                                                                       ("super", 4)]
    assert v.to_json()["stakes"] == [
        {"seat": 2, "multiplier": 8, "factors": [{"kind": "double", "times": 2, "seat": 1},
                                                 {"kind": "super", "times": 4, "seat": 2,
                                                  "pair": 2}]}]
    assert [q["seat"] for q in g.view(1).to_json()["stakes"]] == [0, 2]
