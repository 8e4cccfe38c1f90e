"""Computer players (seed 003's three levels): legal decisions in every variant, the
leader never passes, decisions from the seat's view only (hidden hands reshuffled), level 3
solves a known endgame; play --levels. Arenas: test_arena.py."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddzspec.cards import N_RANKS, Cards, Rank
from ddzspec.game import Action, GameState
from ddzspec.players import Player, player_for
from ddzspec.players.level2 import Plan, plan
from ddzspec.players.level3 import Level3
from ddzspec.rules import Rules, load_rules

#: every built-in variant a deal can be played under (duel-literal is refused: ambiguous moves)
VARIANTS = ["classic", "kawu", "duel"]


def _play(state: GameState, players: list[Player], stop: int | None = None) -> GameState:
    """Play on from ``state``; every decision is checked against the legal actions and the
    leader-never-passes rule (seeds 000/002) before it is applied."""
    steps = 0
    while not state.over and (stop is None or steps < stop):
        seat = state.turn
        assert seat is not None
        view = state.view(seat)
        action = players[seat].decide(view)
        assert action in state.legal_actions(), (action, view)
        if state.phase == "play" and state.last is None:
            assert action.kind == "play", f"level {players[seat].level} passed as leader"
        state = state.apply(action)
        steps += 1
    return state


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6),
       levels=st.lists(st.sampled_from([1, 2]), min_size=3, max_size=3))
def test_levels_1_2_play_only_legal_actions(name: str, seed: int, levels: list[int]) -> None:
    rules = load_rules(name)
    n = rules.deal.players
    final = _play(GameState.new(rules, seed=seed),
                  [player_for(lv, seed) for lv in levels[:n]])
    assert final.over and final.result is not None
    assert sum(final.result.scores) == 0


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6),
       levels=st.lists(st.sampled_from([1, 2]), min_size=3, max_size=3))
def test_levels_1_2_play_laizi_from_the_wild_moves(seed: int, levels: list[int]) -> None:
    """Laizi (issue 26): every play is one of the wild legal moves, to the end of the deal."""
    final = _play(GameState.new(load_rules("laizi"), seed=seed),
                  [player_for(lv, seed) for lv in levels])
    assert final.over and final.result is not None
    assert sum(final.result.scores) == 0


DECLARED = str(Path(__file__).parents[2] / "examples" / "laizi-declared.rules")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6),
       levels=st.lists(st.sampled_from([1, 2, 3]), min_size=3, max_size=3))
def test_levels_play_reading_declared_stating_each_reading(seed: int,
                                                           levels: list[int]) -> None:
    """Laizi under ``reading declared`` (issue 26): every play states its reading, one of the
    (play, reading) pairs the game lists, to the end of the deal (level 3: level 2's play)."""
    rules = load_rules(DECLARED)
    players = [Level3(seed, budget=0.02) if lv == 3 else player_for(lv, seed) for lv in levels]
    state = GameState.new(rules, seed=seed)
    final = _play(state, players)
    assert final.over and final.result is not None
    assert sum(final.result.scores) == 0
    plays = [a for a in final.log if a.kind == "play"]
    assert plays and all(a.declared is not None for a in plays)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6))
def test_level_3_plays_only_legal_actions(name: str, seed: int) -> None:
    """Level 3 at a small budget (20 ms a move) for a whole deal, against level 2."""
    rules = load_rules(name)
    n = rules.deal.players
    players: list[Player] = [Level3(seed, budget=0.02)] + [player_for(2)] * (n - 1)
    final = _play(GameState.new(rules, seed=seed), players)
    assert final.over


def test_player_for_rejects_bad_levels() -> None:
    for bad in (0, 4, True, "2"):
        with pytest.raises(ValueError, match="levels are 1"):
            player_for(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="budget"):
        player_for(3, budget=0)
    assert [player_for(lv).level for lv in (1, 2, 3)] == [1, 2, 3]


def test_a_player_refuses_a_view_not_on_turn() -> None:
    g = GameState.new(load_rules("classic"), seed=7)  # seat 2 speaks first
    with pytest.raises(ValueError, match="not seat 0's turn"):
        player_for(2).decide(g.view(0))


# ----------------------------------------------------------------------------- level 1 / 2

def _classic_deal(h0: str, h1: str) -> GameState:
    """A classic deal with seats 0 and 1 given; seat 2 gets the highest 17 of the rest, the
    talon the lowest 3; seat 0 speaks first."""
    rules = load_rules("classic")
    rest = [i for i in range(N_RANKS) for _ in range(rules.deck[i])]
    for h in (h0, h1):
        for i, c in enumerate(Cards.parse(h).counts):
            for _ in range(c):
                rest.remove(i)
    return GameState.new(rules, hands=[h0, h1, Cards.from_ranks(i + 3 for i in rest[3:])],
                         talon=Cards.from_ranks(i + 3 for i in rest[:3]), first=0)


def test_level_1_leads_the_smallest_move_and_answers_smallest() -> None:
    """Hand-worked: seat 0 bids 3 and leads; level 1 leads its lowest single (3); seat 1
    answers a 4 with its lowest higher single (5), not a bomb or a pair."""
    g = _classic_deal("3345678TJQKA2BR44", "5556667778889TTT9")
    g = g.apply(Action.bid(0, 3))
    assert player_for(1).decide(g.view(0)) == Action.play(0, "3")
    g = g.apply(Action.play(0, "4"))
    assert player_for(1).decide(g.view(1)) == Action.play(1, "5")


def test_plan_counts_the_fewest_plays() -> None:
    """Hand-worked plans under classic: a straight and a trio with its kicker single are two
    plays; a pair straight 334455 is one; the rocket and a bomb are set apart."""
    rules = load_rules("classic")

    def counts(text: str) -> tuple[int, ...]:
        from ddzspec.cards import parse_cards
        return parse_cards(text).cards.counts

    p = plan(counts("34567" + "999" + "J"), rules)
    assert sorted(u[0] for u in p.units) == ["chain", "group", "group"]
    assert p.cost < 2.5  # three units, one kicker absorbed: two plays (+ low-card tie-break)
    p2 = plan(counts("334455"), rules)
    assert p2.units == (("chain", 2, (0, 1, 2)),)
    p3 = plan(counts("BR" + "7777" + "3"), rules)
    assert {u[0] for u in p3.controls} == {"rocket", "bomb"} and len(p3.units) == 1


def test_level_2_lets_a_partner_trick_stand() -> None:
    """Seat 0 is landlord and leads a 3; peasant seat 1 plays an A; its partner seat 2 passes
    although it holds higher singles (a 2)."""
    g = _classic_deal("3456789TJQKA2BR33", "44556677889TTJJQA")
    g = g.apply(Action.bid(0, 3))
    g = g.apply(Action.play(0, "3"))
    g = g.apply(Action.play(1, "A"))
    assert g.hands[2].counts[12] > 0  # seat 2 could beat the A with a 2
    assert player_for(2).decide(g.view(2)) == Action.pass_(2)
    assert player_for(1).decide(g.view(2)) != Action.pass_(2)  # level 1 beats its partner


# ----------------------------------------------------------------------------- laizi (issue 26)

def _laizi_counts(text: str) -> tuple[int, ...]:
    from ddzspec.cards import parse_cards
    return parse_cards(text).cards.counts


def test_level_2_plans_wild_cards_into_a_bomb_and_a_straight() -> None:
    """Hand-worked laizi plans (the wild rank given): a wild card completes a bomb or fills
    a straight's gap instead of staying a card of its own rank. Cost: plays, minus kickers
    absorbed, plus 0.1 × (1 − strength / 15) per single or pair (15 ranks in laizi's order)."""
    rules = load_rules("laizi")
    five, six, nine, king = (Rank.FIVE.index, Rank.SIX.index, Rank.NINE.index,
                             Rank.KING.index)
    # 555 + a wild 9: the soft bomb 5555, nothing left (cost 0); as natural cards it is the
    # trio 555 with the single 9 as its kicker: 2 plays − 1 kicker + 0.1 × (1 − 6/15) = 1.06
    assert plan(_laizi_counts("5559"), rules, nine) == Plan((), (("bomb", 4, (five,)),), 0.0)
    assert plan(_laizi_counts("5559"), rules).cost == pytest.approx(1.06)
    # and with a K beside it: the bomb and the single K, 1 + 0.1 × (1 − 10/15)
    p = plan(_laizi_counts("5559K"), rules, nine)
    assert p.controls == (("bomb", 4, (five,)),) and p.units == (("group", 1, (king,)),)
    assert p.cost == pytest.approx(1 + 0.1 * (1 - 10 / 15))
    # 3 4 5 _ 7 8 + a wild Q: the straight 345678 (the wild card as the 6), one play; as
    # natural cards six singles
    queen = Rank.QUEEN.index
    p = plan(_laizi_counts("34578Q"), rules, queen)
    assert p.units == (("chain", 1, tuple(range(Rank.THREE.index, Rank.EIGHT.index + 1))),)
    assert six in p.units[0][2] and p.cost == 1.0
    assert len(plan(_laizi_counts("34578Q"), rules).units) == 6
    # two wild Qs: the 6 and the 9, the straight 3456789
    p = plan(_laizi_counts("34578QQ"), rules, queen)
    assert p.units == (("chain", 1, tuple(range(Rank.THREE.index, Rank.NINE.index + 1))),)
    # wild cards alone are their own rank: the rocket and the pair 99 (1 + 0.1 × (1 − 6/15)),
    # not the pair 22 that would cost less (1 + 0.1 × (1 − 12/15)) but cannot be played
    p = plan(_laizi_counts("BR99"), rules, nine)
    assert p.units == (("group", 2, (nine,)),) and p.cost == pytest.approx(1.06)


def _laizi_view(hand: str, wild: int) -> Any:
    """Seat 0 (landlord, 20 cards dealt) to lead a laizi trick with ``hand``, the peasants
    holding 17 cards each: the view level 2 reads (as level 3's rollouts build it)."""
    from ddzspec.cards import EMPTY
    from ddzspec.game import Phase, SeatView
    h = Cards.parse(hand)
    return SeatView(0, None, h, Phase.PLAY, 0, (len(h), 17, 17), 0, None, (), 0, None, (),
                    None, 1, 1, (), (0, 0, 0), EMPTY, (), None, load_rules("laizi"),
                    wild=(wild,))


def test_level_2_leads_the_straight_its_wild_card_completes() -> None:
    """34578 + KK + a wild Q: the plan is the straight 345678 (the Q as the 6) and the pair
    KK (2 + 0.1 × (1 − 10/15)); level 2 leads the plan's lowest play, the straight, with the
    held cards 34578Q. Level 1 leads its smallest play, the single 3."""
    view = _laizi_view("34578QKK", Rank.QUEEN.index)
    assert player_for(2).decide(view) == Action.play(0, "34578Q")
    assert player_for(1).decide(view) == Action.play(0, "3")


def _first_bid(name: str, hand: str, wild: str | None, level: int) -> Action:
    """The first bid of seat 0 holding ``hand`` (17 cards) in a deal of ``name``, the rest of
    the deck dealt in order (seat 1, seat 2, the talon last), ``wild`` the drawn wild rank."""
    rules = load_rules(name)
    rest = [i for i in range(N_RANKS) for _ in range(rules.deck[i])]
    for i, c in enumerate(Cards.parse(hand).counts):
        for _ in range(c):
            rest.remove(i)
    hands = [Cards.parse(hand)] + [Cards.from_ranks(i + 3 for i in rest[k:k + 17])
                                   for k in (0, 17)]
    g = GameState.new(rules, hands=hands, talon=Cards.from_ranks(i + 3 for i in rest[34:]),
                      first=0, wild=None if wild is None else [wild])
    assert g.phase == "bidding" and g.turn == 0
    return player_for(level).decide(g.view(0))


def test_level_1_bids_the_bomb_its_wild_card_completes() -> None:
    """Level 1's count (jokers + natural 2s + fours; bids 5+ → 3, 4 → 2, 3 → 1), hand
    555 9 R 22 3 4 6 7 8 T J Q K A (17 cards). Classic: the red joker and two 2s, 1 + 2 = 3 →
    the lowest bid, 1. Laizi with the 9s wild: the wild 9 completes the soft bomb 5555,
    3 + 1 = 4 → the middle bid, 2. With the 5s wild: the three wild 5s complete the rank with
    the most cards, 22 (two wild cards: 2222), the third stays alone (one card completes no
    single's four): 1 + 2 (the natural 2s) + 1 = 4 → 2."""
    hand = "5559R2234678TJQKA"
    assert _first_bid("classic", hand, None, 1) == Action.bid(0, 1)
    assert _first_bid("laizi", hand, "9", 1) == Action.bid(0, 2)
    assert _first_bid("laizi", hand, "5", 1) == Action.bid(0, 2)


def test_level_3_plays_a_laizi_deal_to_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Level 3 (156 rollout steps a move: 13 steps a second × 60 s / ``wild_step_cost`` 5, far
    inside its 51-second clock guard, so the test does not depend on the machine's load)
    against level 2 on a laizi deal: every action legal, the same deal twice with the same
    seed gives the same actions, each sampled deal keeps the drawn wild rank and agrees with
    the seat's view, and the endgame solver is asked with the wild rank once few cards are
    left."""
    from ddzspec.players import endgame, level3

    asked: list[tuple[int, ...]] = []
    solver = endgame.winning_plays

    def spy(state: GameState, seconds: float) -> frozenset[Cards | None] | None:
        asked.append(state.wild)
        return solver(state, seconds)
    monkeypatch.setattr(endgame, "winning_plays", spy)
    samples: list[bool] = []
    real = level3.sample_deal

    def checked(view: Any, rng: random.Random) -> GameState:
        got = real(view, rng)
        samples.append(got.wild == view.wild and got.view(view.seat) == view)
        return got
    monkeypatch.setattr(level3, "sample_deal", checked)
    rules = load_rules("laizi")
    logs = []
    assert Level3().wild_step_cost == 5  # 13 × 60 / 5 = 156 steps a move
    for _ in range(2):
        players: list[Player] = [Level3(5, budget=60.0, steps_per_second=13),
                                 player_for(2), player_for(2)]
        final = _play(GameState.new(rules, seed=18), players)  # reaches a 14-card endgame
        assert final.over and final.result is not None and sum(final.result.scores) == 0
        logs.append(final.log)
    assert logs[0] == logs[1]
    assert samples and all(samples)
    assert asked and set(asked) == {final.wild}


# ----------------------------------------------------------------------------- the view only

def _reshuffled(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same public deal with the cards ``seat`` cannot see (the other seats' unplayed
    cards, the landlord's shown talon excepted, and the undealt ones) dealt anew at random
    into the same counts: built from the start and replayed, independently of the players."""
    rules = state.rules
    n = state.players
    ll = state.landlord
    assert ll is not None
    played = [[0] * N_RANKS for _ in range(n)]
    for a in state.log:
        if a.kind == "play" and a.cards is not None:
            for i, c in enumerate(a.cards.counts):
                played[a.seat][i] += c
    known = [max(0, t - p) for t, p in zip(state.talon.counts, played[ll])]
    hidden: list[int] = []
    for s in range(n):
        if s == seat:
            continue
        for i, c in enumerate(state.hands[s].counts):
            hidden += [i] * (c - (known[i] if s == ll else 0))
    for i, c in enumerate(state.undealt.counts):
        hidden += [i] * c
    rng.shuffle(hidden)
    at = 0
    initial = []
    for s in range(n):
        if s == seat:
            now = list(state.hands[s].counts)
        else:
            k = len(state.hands[s]) - (sum(known) if s == ll else 0)
            now = list(known) if s == ll else [0] * N_RANKS
            for i in hidden[at:at + k]:
                now[i] += 1
            at += k
        h = [a + b for a, b in zip(now, played[s])]
        if s == ll:
            h = [a - b for a, b in zip(h, state.talon.counts)]
        initial.append(Cards(tuple(h)))
    bids = state.bids
    g = GameState.new(rules, hands=initial, talon=state.talon, first=bids[0].seat)
    for a in bids + tuple(a for a in state.log if a.kind in ("play", "pass")):
        g = g.apply(a)
    return g


@pytest.mark.parametrize("name", ["classic", "duel"])
def test_decisions_do_not_change_when_hidden_hands_are_reshuffled(name: str) -> None:
    """At several points of level-2 deals, the seat on turn's view and its decision (levels
    1, 2, and 3 with a step budget) are the same in five reshuffles of the hidden cards — and
    the hidden hands did change, so the test can fail."""
    rules = load_rules(name)
    rng = random.Random(5)
    changed = 0
    for seed in range(3):
        g = GameState.new(rules, seed=seed)
        for stop in (6, 12):
            s = _play(g, [player_for(2)] * rules.deal.players, stop)
            if s.over or s.phase != "play":
                continue
            seat = s.turn
            assert seat is not None
            l3 = Level3(seed, budget=30.0, steps_per_second=3, solve_cards=0)
            players: list[Player] = [player_for(1), player_for(2), l3]
            want = [p.decide(s.view(seat)) for p in players]
            for _ in range(5):
                alt = _reshuffled(s, seat, rng)
                changed += alt.hands != s.hands
                assert alt.view(seat) == s.view(seat)
                assert [p.decide(alt.view(seat)) for p in players] == want
    assert changed >= 5


# ----------------------------------------------------------------------------- level 3 endgame

#: Puzzle DDZ2-06 of the shared puzzle set (source: github:WZ403809264/doudizhu_solver
#: README.md, table "Compared to other doudizhu_solver"): two seats, classic combinations,
#: one pass closes a trick, first out wins; first RBAAKKQTT99 to lead against 2222JJTT
#: wins, and only with 9 or T.
DDZ2_06_FIRST, DDZ2_06_SECOND, DDZ2_06_WINNING = "RBAAKKQTT99", "2222JJTT", ("9", "T")

#: A two-seat variant of the duel where every card is dealt (ranks 9 to the jokers, 13 cards
#: each, talon 4, none undealt): the seat's view then pins the opponent's hand down, so the
#: puzzle is an open-hand position for level 3 too. Straights run 9..A as in the puzzle's
#: classic combinations for these cards.
OPEN_DUEL = """\
rules open_duel "two seats, every card dealt (test)" extends duel
deck {
    ranks 3 4 5 6 7 8 9 10 J Q K A 2
    copies 4
    jokers B R
    remove 3 4 5 6 7 8
}
order 9 10 J Q K A 2 B R
group chain = 9 .. A
deal {
    players 2
    hand 13
    talon 4
    undealt 0
    turn counterclockwise
}
shapes {
    straight = 1 x 5..6 in chain
}
"""


def _puzzle_deal(tmp_path: Path) -> tuple[Rules, GameState]:
    """A legal open_duel deal reaching DDZ2-06 with the landlord (seat 0) to lead: hands and
    the 11 plays were worked out by hand (landlord sheds Q, QQ, AA, K; peasant K, 99, JJ)."""
    path = tmp_path / "open_duel.rules"
    path.write_text(OPEN_DUEL)
    rules = load_rules(str(path))
    landlord17 = DDZ2_06_FIRST + "QQQAAK"
    talon = "RB99"
    from ddzspec.cards import parse_cards
    l13 = parse_cards(landlord17).cards - parse_cards(talon).cards
    peasant = DDZ2_06_SECOND + "K99JJ"
    g = GameState.new(rules, hands=[l13, peasant], talon=talon, first=0)
    script = [Action.call(0), Action.rob(1, False),
              Action.play(0, "Q"), Action.play(1, "K"), Action.pass_(0),
              Action.play(1, "99"), Action.pass_(0),
              Action.play(1, "JJ"), Action.play(0, "QQ"), Action.pass_(1),
              Action.play(0, "AA"), Action.pass_(1),
              Action.play(0, "K"), Action.pass_(1)]
    for a in script:
        g = g.apply(a)
    return rules, g


def test_level_3_plays_a_winning_move_of_a_solved_endgame(tmp_path: Path) -> None:
    _, g = _puzzle_deal(tmp_path)
    assert g.turn == 0 and g.last is None and g.landlord == 0 and g.robs == 0
    assert str(g.hands[0]) == str(Cards.parse(DDZ2_06_FIRST))
    assert str(g.hands[1]) == str(Cards.parse(DDZ2_06_SECOND))
    view = g.view(0)
    assert view.unseen == g.hands[1]  # nothing hidden but the opponent's hand
    wins = {Cards.parse(m) for m in DDZ2_06_WINNING}
    a = Level3(seed=1, budget=5.0, solve_cards=20).decide(view)
    assert a.kind == "play" and a.cards in wins
    # level 2 alone does not find it: the search is what makes the difference here
    assert player_for(2).decide(view).cards not in wins


# ----------------------------------------------------------------------------- command line

def test_play_levels_sets_the_players(cli: Any) -> None:
    """``play --levels 1,1,1`` is level-1 self-play: the same record as the library's."""
    import json
    code, out, _ = cli("play", "--seed", "4", "--levels", "1,1,1", "--json")
    assert code == 0
    rec = json.loads(out)
    g = GameState.new(load_rules("classic"), seed=4)
    final = _play(g, [player_for(1)] * 3)
    assert rec["actions"] == [a.to_json() for a in final.log]
    code2, out2, _ = cli("play", "--seed", "4", "--json")
    assert code2 == 0 and json.loads(out2) != rec  # level 2 plays another deal


# found by tester 2
def test_player_for_refuses_an_infinite_budget() -> None:
    from ddzspec.players import player_for
    for bad in (float("inf"), float("nan"), 0, -1):
        with pytest.raises(ValueError, match="a time per move in seconds"):
            player_for(3, budget=bad)


# found by tester 2
def test_empty_levels_are_an_error_not_the_default(cli: Any) -> None:
    code, _, err = cli("play", "--levels", "", "--seed", "1")
    assert code == 2 and err == "ddzspec: error: --levels: levels '': '' is not a level (1, 2 " \
                                "or 3)\n"
