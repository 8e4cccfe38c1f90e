"""The deal as a state machine: bidding, talon, trick play, win and scoring, each rule from its
seed (000/002 classic, 003 duel, 004 kawu), plus property tests over random seeded deals."""

from __future__ import annotations

import json
import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzspec.cards import N_RANKS, Cards
from ddzspec.errors import GameError, UnplayableRulesError
from ddzspec.game import (
    Action,
    ActionKind,
    BadSeatError,
    CardsNotHeldError,
    DoesNotBeatError,
    Game,
    GameState,
    InvalidBidError,
    LeaderMayNotPassError,
    NotAMoveError,
    OutOfTurnError,
    WrongPhaseError,
    shuffle_deal,
)
from ddzspec.players import player_for
from ddzspec.rules import Rules, load_rules

VARIANTS = ("classic", "kawu", "duel")


def rest_of_deck(rules: Rules, *parts: str) -> list[int]:
    """The deck minus the given cards, as rank indices low to high."""
    counts = list(rules.deck)
    for p in parts:
        if not p:
            continue
        for i, c in enumerate(Cards.parse(p).counts):
            counts[i] -= c
            assert counts[i] >= 0, p
    return [i for i in range(N_RANKS) for _ in range(counts[i])]


def cards_of(idx: list[int]) -> Cards:
    counts = [0] * N_RANKS
    for i in idx:
        counts[i] += 1
    return Cards(tuple(counts))


def explicit(rules: Rules, seat0: str, talon: str, seat1: str | None = None,
             first: int = 0) -> GameState:
    """A deal where seat 0 holds ``seat0``; the rest of the deck is dealt low to high."""
    rest = rest_of_deck(rules, seat0, talon, seat1 or "")
    hands = [Cards.parse(seat0)]
    if seat1 is not None:
        hands.append(Cards.parse(seat1))
    n = rules.deal.hand
    while len(hands) < rules.deal.players:
        hands.append(cards_of(rest[:n]))
        rest = rest[n:]
    return GameState.new(rules, hands=hands, talon=talon, first=first)


def run(state: GameState, script: list[tuple[int, str]]) -> GameState:
    """Apply ``(seat, what)`` steps: "bid N", "call"/"nocall", "rob"/"norob", "pass" or cards."""
    for seat, what in script:
        if what.startswith("bid "):
            a = Action.bid(seat, int(what[4:]))
        elif what in ("call", "nocall"):
            a = Action.call(seat, what == "call")
        elif what in ("rob", "norob"):
            a = Action.rob(seat, what == "rob")
        elif what == "pass":
            a = Action.pass_(seat)
        else:
            a = Action.play(seat, what)
        state = state.apply(a)
    return state


CLASSIC_LL = "3 5555 666777888999"  # landlord's 17; the talon TTT completes a 5-trio plane


def test_seed_004_example_bid_2_one_bomb_landlord_wins() -> None:
    """Seed 004: "enchère de 2, une bombe jouée, le propriétaire gagne. Chaque paysan perd
    2 × 2 = 4 points et le propriétaire en gagne 8." Neither spring nor anti-spring here."""
    for name in ("kawu", "classic"):
        rules = load_rules(name)
        g = explicit(rules, CLASSIC_LL, "TTT")
        g = run(g, [(0, "bid 2"), (1, "bid 0"), (2, "bid 0")])
        assert (g.phase, g.landlord, g.base, len(g.hands[0])) == ("play", 0, 2, 20)
        g = run(g, [(0, "3"), (1, "4"), (2, "pass"), (0, "5555"), (1, "pass"), (2, "pass"),
                    (0, "666777888999TTT")])
        r = g.result
        assert r is not None and g.over
        assert r.winner == "landlord" and not r.spring and not r.anti_spring
        assert [(f.kind, f.times) for f in r.factors] == [("bomb", 2)]
        assert (r.base, r.multiplier, r.stake) == (2, 2, 4)
        assert r.scores == (8, -4, -4)
        assert r.to_json()["scores"] == {"0": 8, "1": -4, "2": -4}


def test_seed_003_example_two_robs_one_bomb_is_8_points() -> None:
    """Seed 003: "avec deux rafles et une bombe jouée, la donne vaut 4 × 2 = 8 points"."""
    duel = load_rules("duel")
    g = explicit(duel, "5 6666 777888999TTT", "JJJ", first=0)
    g = run(g, [(0, "call"), (1, "rob"), (0, "rob"), (1, "norob")])
    assert (g.landlord, g.robs, g.multiplier, g.target(1), g.target(0)) == (0, 2, 4, 2, 0)
    q = "Q" if g.hands[1].counts[9] else "2"
    g = run(g, [(0, "5"), (1, q), (0, "6666"), (1, "pass"), (0, "777888999TTTJJJ")])
    r = g.result
    assert r is not None
    assert [f.kind for f in r.factors] == ["rob", "rob", "bomb"]
    assert (r.multiplier, r.base, r.winner) == (8, 1, "landlord")
    assert r.scores == (8, -8)


def test_spring() -> None:
    """Seeds 000/002: a spring when the landlord goes out while no peasant has played a card."""
    g = explicit(load_rules("classic"), CLASSIC_LL, "TTT")
    g = run(g, [(0, "bid 2"), (1, "bid 3")])  # 3 ends the auction at once (seat 1 landlord)
    assert g.landlord == 1 and g.base == 3
    g = explicit(load_rules("classic"), CLASSIC_LL, "TTT")
    g = run(g, [(0, "bid 1"), (1, "bid 0"), (2, "bid 0"),
                (0, "3"), (1, "pass"), (2, "pass"), (0, "5555"), (1, "pass"), (2, "pass"),
                (0, "666777888999TTT")])
    r = g.result
    assert r is not None and r.spring and not r.anti_spring
    assert [f.kind for f in r.factors] == ["bomb", "spring"]
    assert (r.base, r.multiplier, r.scores) == (1, 4, (8, -4, -4))


def test_anti_spring() -> None:
    """Seeds 000/002: an anti-spring when a peasant goes out while the landlord has played
    nothing but the opening lead."""
    rules = load_rules("classic")
    g = explicit(rules, CLASSIC_LL, "TTT", seat1="333 4444 6789T JJJJ Q")
    g = run(g, [(0, "bid 2"), (1, "bid 0"), (2, "bid 0"), (0, "3"), (1, "4"), (2, "pass"),
                (0, "pass")])
    assert g.leader == 1 and g.turn == 1 and g.last is None
    for move in ("333", "444", "6789T", "JJJJ"):
        g = run(g, [(1, move), (2, "pass"), (0, "pass")])
    g = run(g, [(1, "Q")])
    r = g.result
    assert r is not None and r.winner == "peasants" and r.out_seat == 1
    assert r.anti_spring and not r.spring
    assert [f.kind for f in r.factors] == ["bomb", "anti_spring"]
    assert r.scores == (-16, 8, 8)


def test_four_with_kickers_never_doubles() -> None:
    """Seeds 000/002, restriction 1: 444455-like moves are not bombs and do not double."""
    rules = load_rules("classic")
    g = explicit(rules, "5555 3 4 666777888 99", "9KK")
    g = run(g, [(0, "bid 1"), (1, "bid 0"), (2, "bid 0"),
                (0, "5555+34"), (1, "pass"), (2, "pass"), (0, "666777888999"), (1, "pass"),
                (2, "pass"), (0, "KK")])
    r = g.result
    assert r is not None
    assert [f.kind for f in r.factors] == ["spring"]
    assert r.multiplier == 2


@pytest.mark.parametrize("name", ["classic", "kawu"])
def test_all_pass_redeal(name: str) -> None:
    """Seeds 000/002: all pass → void, reshuffle, nothing carried over, first bidder drawn at
    random again; seed 004 (kawu): "le joueur suivant annonce en premier"."""
    rules = load_rules(name)
    g = GameState.new(rules, seed=11)
    first = g.first
    hands0 = g.hands
    for k in range(3):
        g = g.apply(Action.bid((first + k) % 3, 0))
    assert g.phase == "bidding" and g.attempt == 1
    assert g.hands != hands0 and g.bids == () and g.high == 0 and g.factors == ()
    assert len(g.log) == 3
    if name == "kawu":
        assert g.first == (first + 1) % 3
    else:
        assert g.first == shuffle_deal(rules, 11, 1, first)[3]
    assert g.turn == g.first
    # and the redealt deal plays on normally
    g = g.apply(Action.bid(g.first, 3))
    assert g.landlord == g.first and g.phase == "play"


def test_kawu_next_bidder_over_several_redeals() -> None:
    rules = load_rules("kawu")
    g = GameState.new(rules, seed=5)
    firsts = [g.first]
    for _ in range(4):
        for k in range(3):
            g = g.apply(Action.bid((g.first + k) % 3, 0))
        firsts.append(g.first)
    assert all(b == (a + 1) % 3 for a, b in pairwise(firsts))


def test_fourth_rob_is_landlord_at_once() -> None:
    """Seed 003: "Celui qui fait la quatrième rafle devient aussitôt le propriétaire"."""
    duel = load_rules("duel")
    g = GameState.new(duel, seed=3)
    f, o = g.first, 1 - g.first
    g = run(g, [(f, "call"), (o, "rob"), (f, "rob"), (o, "rob"), (f, "rob")])
    assert (g.phase, g.landlord, g.robs, g.multiplier) == ("play", f, 4, 16)
    assert g.target(o) == 4 and g.target(f) == 0  # the peasant wins at four cards left
    assert len(g.hands[f]) == 20 and len(g.hands[o]) == 17
    v = g.view(o)
    assert v.targets == ((4, 0) if o == 0 else (0, 4))


def test_no_call_first_speaker_is_landlord() -> None:
    """Seed 003: "Si aucun des deux n'annonce, on ne redistribue pas : le premier joueur devient
    le propriétaire avec zéro rafle"."""
    duel = load_rules("duel")
    g = GameState.new(duel, seed=4)
    f = g.first
    g = run(g, [(f, "nocall"), (1 - f, "nocall")])
    assert (g.landlord, g.robs, g.multiplier, g.attempt) == (f, 0, 1, 0)
    assert g.target(1 - f) == 0


def test_second_speaker_calls_then_first_may_rob() -> None:
    duel = load_rules("duel")
    g = GameState.new(duel, seed=4)
    f = g.first
    g = run(g, [(f, "nocall"), (1 - f, "call"), (f, "rob"), (1 - f, "norob")])
    assert (g.landlord, g.robs) == (f, 1)


def test_duel_peasant_wins_at_the_handicap() -> None:
    """Seed 003: "Le paysan gagne dès que, après l'un de ses coups, le nombre de cartes qui lui
    restent est inférieur ou égal à l'avance"."""
    duel = load_rules("duel")
    g = explicit(duel, "6 777 888 999 TTT QQQ A", "JJJ", first=0)
    assert g.hands[1].counts[2] > 0  # seat 1 holds a 5
    g = run(g, [(0, "call"), (1, "rob"), (0, "norob")])
    assert (g.landlord, g.robs, g.target(0)) == (1, 1, 1)
    g = run(g, [(1, "5"), (0, "6"), (1, "pass"), (0, "777888999TTT"), (1, "pass"), (0, "QQQ")])
    r = g.result
    assert r is not None and r.winner == "peasants" and r.out_seat == 0
    assert len(g.hands[0]) == 1
    assert [f.kind for f in r.factors] == ["rob", "anti_spring"]
    assert r.scores == (4, -4)


def test_four_sevens_in_hand_play_777_plus_one() -> None:
    """Seeds 000/002, restriction 2: "avec quatre 7 en main, on peut toujours en jouer trois en
    brelan avec une carte"; the fourth 7 stays in hand."""
    rules = load_rules("classic")
    g = explicit(rules, "3 7777 666888999TTT", "JQK")
    g = run(g, [(0, "bid 1"), (1, "bid 0"), (2, "bid 0"), (0, "777+3")])
    assert g.last is not None and g.last[1].shape == "trio_single"
    assert g.hands[0].counts[4] == 1 and g.factors == ()
    g0 = run(explicit(rules, "3 7777 666888999TTT", "JQK"),
             [(0, "bid 1"), (1, "bid 0"), (2, "bid 0")])
    with pytest.raises(NotAMoveError, match="no combination"):  # four 7s + a 3: no move
        g0.apply(Action.play(0, "7777+3"))


def test_rejected_actions_raise_specific_errors_and_change_nothing() -> None:
    rules = load_rules("classic")
    g = explicit(rules, CLASSIC_LL, "TTT")
    cases = [
        (Action.bid(1, 1), OutOfTurnError),
        (Action.bid(0, 4), InvalidBidError),
        (Action.play(0, "3"), WrongPhaseError),
        (Action.call(0), WrongPhaseError),
        (Action.bid(5, 1), BadSeatError),
    ]
    for a, err in cases:
        with pytest.raises(err):
            g.apply(a)
    g1 = g.apply(Action.bid(0, 2))
    with pytest.raises(InvalidBidError, match="strictly above"):
        g1.apply(Action.bid(1, 2))
    script = [(0, "bid 2"), (1, "bid 0"), (2, "bid 0")]
    g2 = run(g1, script[1:])
    cases2: list[tuple[Action, type[GameError]]] = [
        (Action.pass_(0), LeaderMayNotPassError),
        (Action.play(0, "4"), CardsNotHeldError),
        (Action.play(0, "35"), NotAMoveError),
        (Action.play(1, "4"), OutOfTurnError),
        (Action.bid(0, 3), WrongPhaseError),
        (Action(ActionKind.PLAY, 0, 0, Cards.parse("3") - Cards.parse("3")), NotAMoveError),
    ]
    # what the state must still be, derived independently: the same deal and script rebuilt
    # from scratch, and the hands worked out by hand (seat 0 took the talon TTT)
    rebuilt = run(explicit(rules, CLASSIC_LL, "TTT"), script)
    for a, err in cases2:
        with pytest.raises(err):
            g2.apply(a)
        assert g2 == rebuilt
        assert g2.hands[0] == Cards.parse(CLASSIC_LL + "TTT") and g2.turn == 0
        assert (g2.phase, g2.landlord, g2.base, g2.log) == ("play", 0, 2, rebuilt.log)
    # tester 6: "does not hold 33" when the hand shows 33 — say what is needed, rank by rank
    with pytest.raises(CardsNotHeldError, match=r"it needs 4 x 3 \(holds 1\)"):  # one 3
        g2.apply(Action.play(0, "3333"))
    g3 = run(g2, [(0, "9")])
    with pytest.raises(DoesNotBeatError, match="lower body"):
        g3.apply(Action.play(1, "4"))
    with pytest.raises(DoesNotBeatError, match="different types"):
        g3.apply(Action.play(1, "44"))
    game = Game(g3)
    with pytest.raises(GameError):
        game.act(Action.play(1, "4"))
    assert game.state is g3


def test_views_counter_and_warnings() -> None:
    """Seed 003's Counter includes the 9 undealt cards; seed 004's one/two cards left."""
    duel = load_rules("duel")
    g = explicit(duel, "6 777 888 999 TTT QQQ A", "JJJ", first=0)
    v = g.view(0)
    assert v.talon is None and v.targets is None and v.role is None
    assert len(v.unseen) == 46 - 17
    g = run(g, [(0, "call"), (1, "norob")])
    v0, v1 = g.view(0), g.view(1)
    assert v0.role == "landlord" and v1.role == "peasant"
    assert v1.talon == Cards.parse("JJJ")
    assert len(v0.unseen) == 46 - 20  # the peasant's 17 and the 9 undealt
    assert len(v1.unseen) == 46 - 17 - 3
    assert v1.targets == (0, 0)
    g = run(g, [(0, "777888999TTT"), (1, "pass"), (0, "QQQ+6")])
    v1 = g.view(1)
    # the landlord played JJJ? no: the talon JJJ is still held: seen from seat 1 all the same
    assert v1.unseen.counts[8] == 0
    assert g.warnings() == ()
    g = run(g, [(1, "pass"), (0, "JJJ")])
    assert g.warnings() == ((0, "one card left"),)
    assert g.view(1).to_json()["warnings"] == {"0": "one card left"}
    g = run(g, [(1, "pass")])
    g2 = run(g, [(0, "A")])
    assert g2.result is not None and g2.result.spring


def test_unseen_counts_a_played_talon_rank_once() -> None:
    rules = load_rules("classic")
    g = explicit(rules, CLASSIC_LL, "TTT")
    g = run(g, [(0, "bid 1"), (1, "bid 0"), (2, "bid 0")])
    before = g.view(1).unseen.counts[7]  # tens: 4 in the deck, 3 shown in the talon
    assert before == 4 - 3 - g.hands[1].counts[7]
    g = run(g, [(0, "666777888999TTT")])
    assert g.view(1).unseen.counts[7] == before


# ----------------------------------------------------------------------------- properties

def play_out(state: GameState, rng: random.Random, smart: bool) -> GameState:
    level2 = player_for(2)
    while not state.over:
        if smart:
            a = level2.decide(state.view(state.turn))
        else:
            a = rng.choice(state.legal_actions())
        state = state.apply(a)
    return state


@pytest.mark.parametrize("name", VARIANTS)
def test_random_deals_end_conserve_cards_and_are_zero_sum(name: str) -> None:
    rules = load_rules(name)

    @settings(max_examples=100, deadline=None)
    @given(st.integers(0, 2**32), st.booleans())
    def check(seed: int, smart: bool) -> None:
        g = GameState.new(rules, seed=seed)
        g = play_out(g, random.Random(seed), smart)
        r = g.result
        assert r is not None
        total = g.undealt
        for h, p in zip(g.hands, g.played):
            total = total + h + p
        assert total.counts == rules.deck
        assert sum(r.scores) == 0
        ll = r.landlord
        assert all((r.scores[s] > 0) == (r.winner == ("landlord" if s == ll else "peasants"))
                   for s in range(g.players))
        assert len(g.hands[r.out_seat]) <= g.target(r.out_seat)
        assert not (r.spring and r.anti_spring)
        m = 1
        for f in r.factors:
            m *= f.times
        assert m == r.multiplier
        assert all(f.kind in rules.scoring.double for f in r.factors)
    check()


@pytest.mark.parametrize("name", VARIANTS)
def test_rejected_actions_never_change_the_state(name: str) -> None:
    rules = load_rules(name)
    n = rules.deal.players
    deck = [i for i in range(N_RANKS) for _ in range(rules.deck[i])]

    @settings(max_examples=100, deadline=None)
    @given(st.integers(0, 10**6), st.integers(0, 60), st.data())
    def check(seed: int, steps: int, data: st.DataObject) -> None:
        g = GameState.new(rules, seed=seed)
        rng = random.Random(seed)
        taken = []
        for _ in range(steps):
            if g.over:
                break
            taken.append(rng.choice(g.legal_actions()))
            g = g.apply(taken[-1])
        legal = set(g.legal_actions())
        kind = data.draw(st.sampled_from(list(ActionKind)))
        seat = data.draw(st.integers(-1, n))
        if kind is ActionKind.PLAY:
            k = data.draw(st.integers(0, 6))
            own = g.turn is not None and data.draw(st.booleans())
            pool = list(g.hands[g.turn]) if own else [i + 3 for i in deck]  # type: ignore[index]
            picked = data.draw(st.permutations(pool))[:k]
            a = Action(ActionKind.PLAY, seat, 0, Cards.from_ranks(picked))
        else:
            a = Action(kind, seat, data.draw(st.integers(-1, 4)))
        try:
            g2 = g.apply(a)
        except GameError:
            assert a not in legal
            # unchanged: equal to the state rebuilt from scratch by the same actions, whose
            # cards still add up to the deck, and still offering the same actions
            rebuilt = GameState.new(rules, seed=seed)
            for b in taken:
                rebuilt = rebuilt.apply(b)
            assert g == rebuilt and g.log == tuple(taken)
            total = g.undealt if g.landlord is not None else g.undealt + g.talon
            for h, p in zip(g.hands, g.played):
                total = total + h + p
            assert total.counts == rules.deck
            assert set(g.legal_actions()) == legal
        else:
            assert a in legal or (a.kind == "play" and any(
                x.cards == a.cards and x.seat == a.seat for x in legal))
            assert g2 != g
    check()


@pytest.mark.parametrize("name", ["classic", "duel"])
def test_heuristic_player_beats_random_players(name: str) -> None:
    """The computer player of ``ddzspec play`` is simple but not random: one heuristic seat
    against random legal actions wins points over 60 seeded deals."""
    rules = load_rules(name)
    n = rules.deal.players
    total = 0
    for seed in range(60):
        smart = seed % n
        rng = random.Random(seed)
        player = player_for(2)
        g = GameState.new(rules, seed=seed)
        while not g.over:
            g = g.apply(player.decide(g.view(smart)) if g.turn == smart
                        else rng.choice(g.legal_actions()))
        assert g.result is not None
        total += g.result.scores[smart]
    assert total > 0


# ----------------------------------------------------------------------------- structure

def test_every_game_error_lives_in_errors_and_is_importable_from_game() -> None:
    from ddzspec import errors, game
    names = ["WrongPhaseError", "OutOfTurnError", "InvalidBidError", "CardsNotHeldError",
             "NotAMoveError", "DoesNotBeatError", "LeaderMayNotPassError", "BadSeatError"]
    for name in names:
        cls = getattr(errors, name)
        assert getattr(game, name) is cls and issubclass(cls, errors.GameError)
        assert cls.__module__ == "ddzspec.errors"
    assert game.RecordError is errors.RecordError
    assert issubclass(errors.RecordError, errors.DdzError)


def test_not_a_move_and_does_not_beat_always_carry_their_reason() -> None:
    """NotAMoveError promises ``reason``: it used to be missing when a play had no cards."""
    rules = load_rules("classic")
    g = run(explicit(rules, CLASSIC_LL, "TTT"), [(0, "bid 1"), (1, "bid 0"), (2, "bid 0")])
    empty = Action(ActionKind.PLAY, 0, 0, Cards.parse("3") - Cards.parse("3"))
    reasons = {}
    for name, a in (("empty", empty), ("illegal", Action.play(0, "35"))):
        with pytest.raises(NotAMoveError) as e:
            g.apply(a)
        reasons[name] = e.value.reason
    assert reasons["empty"] == "no cards"
    assert reasons["illegal"] == "matches no combination of classic (2 cards)"
    # an ambiguous move never reaches a deal: its rules are refused up front (one policy)
    with pytest.raises(UnplayableRulesError, match="555666777888: plane 555666777888; "
                       "plane_singles 555666777"):
        explicit(load_rules("duel-literal"), "555666777888 9TJQK", "AA2", first=0)
    g3 = run(g, [(0, "9")])
    with pytest.raises(DoesNotBeatError) as e2:
        g3.apply(Action.play(1, "4"))
    assert e2.value.reason == "lower body (4 under 9)"


def test_phase_role_winner_and_kind_are_enums_with_the_same_words() -> None:
    from ddzspec.game import Phase, Role, Winner
    rules = load_rules("classic")
    g = explicit(rules, CLASSIC_LL, "TTT")
    assert g.phase is Phase.BIDDING and g.role(0) is None
    word: str = "bid"
    assert Action(word, 0, 1).kind is ActionKind.BID  # type: ignore[arg-type]
    assert word == ActionKind.BID and hash(ActionKind.BID) == hash(word)
    with pytest.raises(GameError, match="unknown action kind 'dance'"):
        Action("dance", 0)  # type: ignore[arg-type]
    g = run(g, [(0, "bid 1"), (1, "bid 0"), (2, "bid 0")])
    assert g.phase is Phase.PLAY and g.role(0) is Role.LANDLORD and g.role(1) is Role.PEASANT
    g = run(g, [(0, "3"), (1, "pass"), (2, "pass"), (0, "5555"), (1, "pass"), (2, "pass"),
                (0, "666777888999TTT")])
    assert g.phase is Phase.OVER and g.result is not None
    assert g.result.winner is Winner.LANDLORD and f"{g.result.winner}" == "landlord"
    view = g.view(1).to_json()
    assert (view["phase"], view["role"], view["result"]["winner"]) == \
        ("over", "peasant", "landlord")
    assert {type(view["phase"]), type(view["role"]), type(view["result"]["winner"])} == {str}
    assert json.dumps(g.result.to_json()).startswith('{"winner": "landlord"')


def test_a_factors_cards_follow_the_notation_asked_records_keep_english() -> None:
    """Tester 7: the web table showed a bomb's cards in English whatever the notation chosen
    (the view's factors); a record keeps the canonical English."""
    from ddzspec.game.scoring import Factor
    rocket, bomb = Factor("rocket", 2, 1, "BR"), Factor("bomb", 2, 0, "TTTT")
    assert rocket.to_json() == {"kind": "rocket", "times": 2, "seat": 1, "cards": "BR"}
    assert rocket.to_json("fr")["cards"] == "PJ GJ" and rocket.to_json("de")["cards"] == "KJ GJ"
    assert Factor("bomb", 2, 0, "KKKK").to_json("fr")["cards"] == "RRRR"
    assert bomb.cards_in("de") == "TTTT" and Factor("rob", 2, 1).cards_in("fr") is None


def test_refusals_write_cards_in_the_chosen_notation() -> None:
    """Tester F7: why a play is refused (cards not held, does not beat) was written in English
    notation whatever the player chose. ``GameError.text(notation)`` writes the cards in the
    chosen one. Seed 7 (classic): seat 2 bids 3, leads AA; seat 0 holds 344568899TJQQQKAA."""
    from ddzspec.cards import parse_cards
    from ddzspec.errors import CardsNotHeldError, DoesNotBeatError
    st0 = GameState.new(load_rules("classic"), seed=7)
    while st0.phase.value == "bidding":
        st0 = st0.apply(st0.legal_actions()[-1])
    st0 = st0.apply(Action(ActionKind.PLAY, 2, 0, parse_cards("AA").cards))
    assert st0.turn == 0 and st0.hands[0].format() == "344568899TJQQQKAA"
    with pytest.raises(DoesNotBeatError) as low:
        st0.apply(Action(ActionKind.PLAY, 0, 0, parse_cards("QQ").cards))
    assert str(low.value) == low.value.text("en") == \
        "pair QQ does not beat pair AA: lower body (Q under A)"
    assert low.value.text("fr") == "pair DD does not beat pair AA: lower body (D under A)"
    assert low.value.text("de") == "pair DD does not beat pair AA: lower body (D under A)"
    with pytest.raises(CardsNotHeldError) as held:
        st0.apply(Action(ActionKind.PLAY, 0, 0, parse_cards("KK").cards))
    assert held.value.text("en") == ("seat 0 does not hold these cards: it needs 2 x K "
                                     "(holds 1) (hand 344568899TJQQQKAA)")
    assert held.value.text("fr") == ("seat 0 does not hold these cards: it needs 2 x R "
                                     "(holds 1) (hand 344568899TVDDDRAA)")
    assert held.value.text("de") == ("seat 0 does not hold these cards: it needs 2 x K "
                                     "(holds 1) (hand 344568899TBDDDKAA)")


# found by a fresh tester
@pytest.mark.parametrize("value", [True, "1", 1.0])
def test_a_bid_is_a_whole_number(value: object) -> None:
    s = GameState.new(load_rules("classic"), seed=3)
    with pytest.raises(InvalidBidError, match="a bid is a whole number"):
        s.apply(Action("bid", s.turn, value))  # type: ignore[arg-type]


# found by tester 1
def test_actions_with_wrong_types_are_game_errors() -> None:
    """Tester 1 §7: wrong argument types raised TypeError from inside apply."""
    from ddzspec.game import Game
    g = Game.new(load_rules("classic"), seed=1)
    before = g.state
    with pytest.raises(GameError, match=r"an action's cards are Cards, not 5 "):
        g.act(Action.play(0, 5))  # type: ignore[arg-type]
    with pytest.raises(GameError, match=r"an action's cards are Cards, not \"3\" "):
        g.act(Action("play", 0, 0, "3"))  # type: ignore[arg-type]
    with pytest.raises(GameError, match='call is true or false, not "yes"'):
        g.act(Action.call(0, "yes"))  # type: ignore[arg-type]
    with pytest.raises(GameError, match="rob is true or false, not 2"):
        g.act(Action.rob(0, 2))
    assert g.state is before
