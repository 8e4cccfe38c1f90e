"""Legal moves with wild cards (laizi, issue 26): ``ddzspec.wildmoves`` against a plain
reference (every sub-multiset of the hand, every substitution of its wild cards, each read by
the natural move index), hand-worked hands, both reading policies."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations_with_replacement, product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wild_helpers import declared_laizi, restricted_laizi

from ddzspec.cards import N_RANKS, Cards, Rank, parse_cards
from ddzspec.moves import move_index
from ddzspec.readings import Reading
from ddzspec.rules import Rules, load_rules
from ddzspec.rules.model import BombClass
from ddzspec.wild import WildReading, parse_wild, violated, wild_readings
from ddzspec.wildmoves import WildPlay, choose, play_readings, split_hand, wild_legal_moves

LAIZI = load_rules("laizi")
SEVEN = Rank.SEVEN.index
#: a reading and the ranks the wild cards stand for
Pair = tuple[Reading, tuple[int, ...]]
NON_JOKER = [i for i in range(N_RANKS) if LAIZI.deck[i] and i not in LAIZI.jokers]


def substituted(hand: Cards, rank: int, rules: Rules
                ) -> Iterator[tuple[tuple[int, ...], int, tuple[int, ...], Reading]]:
    """The plain derivation: every non-empty sub-multiset of the natural cards with 0..w wild
    cards; every substitution of the wild cards by non-joker ranks (the wild rank included),
    in ``combinations_with_replacement`` order, read by the natural move index (legal:
    exactly one reading); wild cards alone read only as themselves. Yields (the natural
    cards played, the wild cards, the ranks they stand for, the reading)."""
    natural = list(hand.counts)
    w, natural[rank] = natural[rank], 0
    index = move_index(rules)
    for sub in product(*(range(c + 1) for c in natural)):
        for k in range(w + 1):
            if not any(sub) and not k:
                continue
            subs = ([tuple(k if i == rank else 0 for i in range(N_RANKS))] if not any(sub) else
                    [tuple(ranks.count(i) for i in range(N_RANKS))
                     for ranks in combinations_with_replacement(NON_JOKER, k)])
            for s in subs:
                m = tuple(a + b for a, b in zip(sub, s))
                if any(c > d for c, d in zip(m, rules.deck)):
                    continue
                got = index.readings_of(Cards(m))
                if len(got) == 1:
                    yield sub, k, s, got[0]


def reference(hand: Cards, rank: int, rules: Rules) -> dict[tuple[int, int], set[Pair]]:
    """:func:`substituted` by play: (natural cards' key, wild cards) → its readings."""
    out: dict[tuple[int, int], set[Pair]] = {}
    for sub, k, s, r in substituted(hand, rank, rules):
        out.setdefault((Cards(sub).key, k), set()).add((r, s))
    return out


def _as_sets(found: dict[tuple[int, int], list[WildReading]]) -> dict[tuple[int, int], set[Pair]]:
    return {key: {(r.reading, r.stands_for.counts) for r in rs} for key, rs in found.items()}


@pytest.mark.parametrize("seed", range(6))
def test_every_play_and_reading_matches_the_plain_reference(seed: int) -> None:
    rnd = random.Random(seed)
    deck = [i for i in range(N_RANKS) for _ in range(LAIZI.deck[i])]
    wilds = rnd.randint(1, 3)
    natural = [i for i in deck if i != SEVEN]
    counts = [0] * N_RANKS
    for i in rnd.sample(natural, rnd.randint(2, 5)) + [SEVEN] * wilds:
        counts[i] += 1
    hand = Cards(tuple(counts))
    assert hand.counts[SEVEN] == wilds
    nat, w = split_hand(hand, SEVEN)
    found = play_readings(nat, w, SEVEN, LAIZI)
    assert _as_sets(found) == reference(hand, SEVEN, LAIZI)
    # and each play's readings are the forward ones of ddzspec.wild, one move at a time
    for (nkey, k), rs in found.items():
        assert sorted(rs, key=repr) == sorted(
            wild_readings(Cards.from_key(nkey), k, SEVEN, LAIZI), key=repr)


#: a small hand for the plain reference: 1-4 natural cards (no 7, jokers allowed) and 0-3 7s
_SMALL_HANDS = st.tuples(
    st.lists(st.sampled_from([i for i in range(N_RANKS) if LAIZI.deck[i] and i != SEVEN]),
             min_size=1, max_size=4),
    st.integers(0, 3))


@settings(max_examples=30, deadline=None)
@given(_SMALL_HANDS)
def test_random_hands_match_the_plain_reference(drawn: tuple[list[int], int]) -> None:
    # property: on any hand, every play and reading is the plain reference's, and the legal
    # leads are each reference play once (strongest policy), with a reading the reference has
    ranks, wilds = drawn
    counts = [0] * N_RANKS
    for i in ranks:
        counts[i] = min(counts[i] + 1, LAIZI.deck[i])
    counts[SEVEN] = wilds
    hand = Cards(tuple(counts))
    ref = reference(hand, SEVEN, LAIZI)
    nat, w = split_hand(hand, SEVEN)
    assert _as_sets(play_readings(nat, w, SEVEN, LAIZI)) == ref
    plays = wild_legal_moves(hand, SEVEN, LAIZI)
    assert sorted((p.move.natural.key, p.move.wilds) for p in plays) == sorted(ref)
    for p in plays:
        assert (p.reading.reading, p.reading.stands_for.counts) in \
            ref[(p.move.natural.key, p.move.wilds)]


def _moves(hand: str, previous: WildReading | None = None, rules: Rules = LAIZI) -> list[str]:
    return [p.describe() for p in wild_legal_moves(parse_cards(hand).cards, SEVEN, rules,
                                                    previous)]


def test_hand_33_with_two_wild_cards_leads() -> None:
    # 33 + 77 (7 wild): 3 x 3 - 1 = 8 plays (0-2 natural 3s, 0-2 wild cards, not none);
    # 3* can only make 33 (a pair), 3** only 333 (a trio); ** alone is 77 (wild cards are
    # themselves); 33** makes 3333 (a soft bomb) or 333+X (12 trios with a kicker): the lead
    # takes the bomb (bomb comes before trio_single in the priority)
    # hint order: by height (3s before 7s), then shape and size, fewer wild cards first
    assert _moves("3377") == [
        "3: single 3", "33: pair 33", "3*: pair 33 (wild cards as 3)",
        "33*: trio 333 (wild cards as 3)", "3**: trio 333 (wild cards as 33)",
        "*: single 7 (wild cards as themselves)", "**: pair 77 (wild cards as themselves)",
        "33**: bomb 3333 (soft; wild cards as 33)"]


def test_answers_take_the_answered_type_and_the_highest_body() -> None:
    prev = wild_readings(parse_cards("99").cards, 0, SEVEN, LAIZI)[0]  # pair 99
    # 3* reads as pair 33 only: it cannot beat 99; 4* likewise; A* reads as AA: it beats
    assert _moves("3A7", prev) == ["A*: pair AA (wild cards as A)"]
    # a trio 444+5 to beat with 3333 + 777 (7 wild): 3*** answers as the trio 222+3 (the
    # answered type, highest body) though it also reads as the bomb 3333; 33** and 333* have
    # no trio body above 333, so they answer as soft bombs; the natural 3333 as a hard bomb
    # (order pure > hard > soft); *** is the trio 777 (3 cards: not the answered size)
    trio = wild_readings(parse_cards("4445").cards, 0, SEVEN, LAIZI)[0]
    assert _moves("3333777", trio) == [
        "3***: trio_single 222+3 (wild cards as 222)",
        "333*: bomb 3333 (soft; wild cards as 3)", "33**: bomb 3333 (soft; wild cards as 33)",
        "3333: bomb 3333 (hard)"]


def test_declared_policy_lists_every_reading(tmp_path: Path) -> None:
    rules = declared_laizi(tmp_path)
    got = [p.describe() for p in wild_legal_moves(parse_cards("3377").cards, SEVEN, rules)
           if p.move.format() == "33**"]
    # 33** = 3333 (a soft bomb) or 333+X for X in 4 .. 2 (12 ranks, 7 included: a wild card
    # stands for its own rank too; 3 is no kicker of 333, that is the bomb): 1 + 12 = 13
    assert len(got) == 13
    assert "33**: bomb 3333 (soft; wild cards as 33)" in got
    assert "33**: trio_single 333+7 (wild cards as 37)" in got
    assert sum("trio_single" in g for g in got) == 12


def test_declared_plays_are_the_reference_pairs_and_strongest_one_per_play(
        tmp_path: Path) -> None:
    # laizi has no wild restriction: declared lists every (play, reading) pair of the plain
    # reference; strongest lists each play of the reference once
    hand = parse_cards("34459977").cards
    ref = reference(hand, SEVEN, LAIZI)
    declared = wild_legal_moves(hand, SEVEN, declared_laizi(tmp_path))
    assert {((p.move.natural.key, p.move.wilds), (p.reading.reading, p.reading.stands_for.counts))
            for p in declared} == {(key, x) for key, xs in ref.items() for x in xs}
    plays = [(p.move.natural.key, p.move.wilds) for p in wild_legal_moves(hand, SEVEN, LAIZI)]
    assert sorted(plays) == sorted(ref)


def test_pure_bomb_of_four_wild_cards() -> None:
    plays = wild_legal_moves(parse_cards("37777").cards, SEVEN, LAIZI)
    pure = [p for p in plays if p.move.format() == "****"]
    assert [p.reading.bomb_class for p in pure] == [BombClass.PURE]
    assert parse_wild("****", SEVEN, LAIZI) == pure[0].move


def test_wild_restrictions_cut_readings_before_the_policy(tmp_path: Path) -> None:
    # bomb_min_natural 2: 3*** (one natural card) is no bomb; leading, it is then the trio
    # with a kicker of the highest body, 222+3; 33** (two natural cards) stays a soft bomb
    rules = restricted_laizi(tmp_path, "bomb_min_natural 2")
    got = {p.move.format(): p.reading.describe()
           for p in wild_legal_moves(parse_cards("33777").cards, SEVEN, rules)}
    assert got["3***"] == "trio_single 222+3 (wild cards as 222)"
    assert got["33**"] == "bomb 3333 (soft; wild cards as 33)"
    # no_wild_kicker: 3** + 3 natural... 33* reads 333 only; 3*** as XXX+3 keeps its kicker
    # natural, 333+X (a wild kicker) is cut; the bomb 3333 (soft) comes first in the priority
    rules = restricted_laizi(tmp_path, "no_wild_kicker")
    got = {p.move.format(): p.reading.describe()
           for p in wild_legal_moves(parse_cards("3777").cards, SEVEN, rules)}
    assert got["3***"] == "bomb 3333 (soft; wild cards as 333)"
    # every reading kept is one the reference finds and no restriction cuts
    wild = rules.wild
    assert wild is not None
    hand = parse_cards("3457777").cards
    ref = reference(hand, SEVEN, rules)
    for p in wild_legal_moves(hand, SEVEN, rules):
        assert (p.reading.reading, p.reading.stands_for.counts) in \
            ref[(p.move.natural.key, p.move.wilds)]
        assert not violated(wild, p.reading)


@pytest.mark.parametrize("hand", ["3R7777", "BR77", "2277"])
def test_four_wild_cards_and_jokers_match_the_plain_reference(hand: str) -> None:
    # jokers are never stood for: R**** is no bomb, BR** no four with two; the rocket stays
    cards = parse_cards(hand).cards
    nat, w = split_hand(cards, SEVEN)
    assert _as_sets(play_readings(nat, w, SEVEN, LAIZI)) == reference(cards, SEVEN, LAIZI)


@pytest.mark.parametrize("seed", range(4))
def test_answers_are_the_leads_readings_that_beat(tmp_path: Path, seed: int) -> None:
    # answering generates only the answered shape and size and the bombs: the same plays as
    # the policy applied to every reading of every play (choose filters by what beats)
    rnd = random.Random(seed)
    deck = [i for i in range(N_RANKS) for _ in range(LAIZI.deck[i]) if i != SEVEN]
    counts = [0] * N_RANKS
    for i in rnd.sample(deck, 8) + [SEVEN] * 2:
        counts[i] += 1
    hand = Cards(tuple(counts))
    nat, w = split_hand(hand, SEVEN)
    other = Cards(tuple(min(c, 1) for c in LAIZI.deck))  # any move to answer: a random lead
    for rules in (LAIZI, declared_laizi(tmp_path)):
        wild = rules.wild
        assert wild is not None
        prev = rnd.choice(wild_legal_moves(other, SEVEN, rules)).reading
        found = play_readings(nat, w, SEVEN, rules)
        want = {((key), r) for key, rs in found.items() for r in choose(wild, rs, prev)}
        got = {((p.move.natural.key, p.move.wilds), p.reading)
               for p in wild_legal_moves(hand, SEVEN, rules, prev)}
        assert got == want


# --- the generator against a plain reference of the policy (issue 26, "Speed") -------------
# Every play of a small random hand with its reading, found by brute force (every sub-multiset
# of the natural cards, every substitution of the wild cards, read by the move table) and
# settled by the policy written out here from the rules text (laizi.rules: priority, order,
# the restrictions of the wild section), never by ddzspec.wild. Ties (readings of one body
# that differ in their kickers only) go to the first substitution: combinations of ranks in
# ascending order, the rank order being the strength order below the jokers.

def _laizi_with(name: str, lines: str, declared: bool = False) -> str:
    """A rules file extending laizi: laizi's wild section with ``lines`` before its reading
    policy, the policy ``declared`` (its priority dropped) if asked."""
    text = Path(LAIZI.path).read_text(encoding="utf-8")
    wild = text[text.index("wild {"):]
    head, policy = wild[:wild.index("    reading")], wild[wild.index("    reading"):]
    return f"rules {name} extends laizi\n{head}{lines}" + (
        "    reading declared\n}\n" if declared else policy)


_VARIANTS = {
    "laizi": "",
    "restricted": _laizi_with("r", "    restrict no_wild_kicker, bomb_min_natural 2\n"),
    "declared": _laizi_with("d", "    restrict bomb_min_natural 2\n", declared=True),
}


def _variant(name: str, tmp_path: Path) -> Rules:
    if not _VARIANTS[name]:
        return LAIZI
    f = tmp_path / f"{name}.rules"
    f.write_text(_VARIANTS[name], encoding="utf-8")
    return load_rules(str(f))


#: a reading in plain terms: (natural Reading, the ranks the wild cards stand for, its bomb
#: class name or "", whether the play is of wild cards only)
Plain = tuple[Reading, tuple[int, ...], str, bool]


def _plain_readings(hand: Cards, rank: int, rules: Rules) -> dict[tuple[int, int], list[Plain]]:
    """:func:`reference` in substitution order, each reading with its bomb class, the
    restrictions of the file applied: no_wild_kicker (a wild card stands for a body card
    only), bomb_min_natural N (a soft bomb holds N natural cards)."""
    wild = rules.wild
    assert wild is not None
    kinds = {r.kind.value: r.param for r in wild.restrictions}
    last_only = {sh.name for sh in rules.shapes if sh.last_play}
    whole = (Cards(tuple(0 if i == rank else c for i, c in enumerate(hand.counts))).key,
             hand.counts[rank])
    out: dict[tuple[int, int], list[Plain]] = {}
    for sub, k, s, r in substituted(hand, rank, rules):
        alone = not any(sub)
        cls = "" if r.shape != wild.bomb else "pure" if alone else "soft" if any(s) else "hard"
        if not alone:
            if "no_wild_kicker" in kinds and any(x > b for x, b in zip(s, r.body.counts)):
                continue
            if cls == "soft" and "bomb_min_natural" in kinds and \
                    r.size - sum(s) < (kinds["bomb_min_natural"] or 0):
                continue
        play = (Cards(sub).key, k)
        if r.shape in last_only and play != whole:
            continue
        out.setdefault(play, []).append((r, s, cls, alone))
    return out


def _plain_strength(rules: Rules, p: Plain) -> tuple[int, int, int]:
    """(place in the wild order counted from the bottom, tier, body key)."""
    wild = rules.wild
    assert wild is not None
    name = p[2] or p[0].shape
    place = len(wild.order) - wild.order.index(name) if name in wild.order else 0
    return place, p[0].tier, p[0].key


def _plain_beats(rules: Rules, p: Plain, prev: Plain) -> bool:
    if p[0].tier or prev[0].tier:
        return _plain_strength(rules, p) > _plain_strength(rules, prev)
    return (p[0].shape, p[0].size) == (prev[0].shape, prev[0].size) and p[0].key > prev[0].key


def _plain_policy(rules: Rules, plain: list[Plain], prev: Plain | None) -> list[Plain]:
    """The readings a play is played as: declared, every one (that beats ``prev``); strongest,
    leading the type first in the priority then the highest strength, answering the
    answered type and size else a tiered reading, the highest strength (first of equals)."""
    wild = rules.wild
    assert wild is not None
    if prev is not None:
        plain = [p for p in plain if _plain_beats(rules, p, prev)]
    if wild.policy.value == "declared" or not plain:
        return plain
    if prev is None:
        top = min(wild.priority.index(p[0].shape) for p in plain)
        pool = [p for p in plain if wild.priority.index(p[0].shape) == top]
    else:
        pool = [p for p in plain if (p[0].shape, p[0].size) == (prev[0].shape, prev[0].size)] \
            or [p for p in plain if p[0].tier]
    if not pool:
        return []
    best = max(_plain_strength(rules, p) for p in pool)
    return [next(p for p in pool if _plain_strength(rules, p) == best)]


def _plain_moves(readings: dict[tuple[int, int], list[Plain]], rules: Rules,
                 prev: Plain | None) -> list[tuple[int, int, Plain]]:
    """Every (natural cards' key, wild cards, reading) the hand may play, in the hint order:
    below the bomb line by body key, above it by strength; then shape, size, fewer wild
    cards, the natural cards' key (the declared policy's readings of one play in any order)."""
    shapes = {s.name: i for i, s in enumerate(rules.shapes)}
    out = [(key[0], key[1], p) for key, plain in readings.items()
           for p in _plain_policy(rules, plain, prev)]
    out.sort(key=lambda x: ((0, 0, 0) if not x[2][0].tier else _plain_strength(rules, x[2]),
                            x[2][0].key, shapes[x[2][0].shape], x[2][0].size, x[1], x[0]))
    return out


def _as_plain(p: WildPlay) -> tuple[int, int, Plain]:
    r = p.reading
    return (p.move.natural.key, p.move.wilds, (r.reading, r.stands_for.counts,
                                               r.bomb_class.value if r.bomb_class else "",
                                               r.all_wild))


@pytest.mark.parametrize("variant", ["laizi", "restricted", "declared"])
@pytest.mark.parametrize("seed", range(5))
def test_leads_and_answers_match_the_plain_policy(tmp_path: Path, variant: str,
                                                  seed: int) -> None:
    rules = _variant(variant, tmp_path)
    rnd = random.Random(100 * seed + len(variant))
    deck = [i for i in range(N_RANKS) for _ in range(rules.deck[i]) if i != SEVEN]
    counts = [0] * N_RANKS
    for i in rnd.sample(deck, rnd.randint(3, 5)) + [SEVEN] * rnd.randint(1, 3):
        counts[i] += 1
    hand = Cards(tuple(counts))
    readings = _plain_readings(hand, SEVEN, rules)
    lead = [_as_plain(p) for p in wild_legal_moves(hand, SEVEN, rules)]
    want = _plain_moves(readings, rules, None)
    if rules.wild is not None and rules.wild.policy.value == "declared":
        assert sorted(lead, key=repr) == sorted(want, key=repr)
    else:
        assert lead == want  # same plays, same readings, same order
    # answers to moves of another hand (its natural and wild plays, as it would lead them)
    other = Cards(tuple(rnd.randint(0, 2) if i != SEVEN else 2 for i in range(N_RANKS)))
    for p in rnd.sample(wild_legal_moves(other, SEVEN, rules), 8):
        prev = _as_plain(p)[2]
        got = [_as_plain(a) for a in wild_legal_moves(hand, SEVEN, rules, p.reading)]
        want = _plain_moves(readings, rules, prev)
        if rules.wild is not None and rules.wild.policy.value == "declared":
            assert sorted(got, key=repr) == sorted(want, key=repr)
        else:
            assert got == want


def test_legal_moves_refuse_two_wild_ranks_rather_than_read_one() -> None:
    # the generator takes one wild rank; under tiandi it would miss the other rank's cards and
    # the long bombs, so it refuses
    with pytest.raises(ValueError, match="tiandi draws 2 wild ranks: legal moves with several"):
        wild_legal_moves(parse_cards("77779Q").cards, Rank.NINE.index, load_rules("tiandi"))
