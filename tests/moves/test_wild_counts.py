"""The counts ``check`` gives of a wild-card file, derived independently: a plain reference in
this file (nothing imported from ddzspec's readings) enumerates every wild move of laizi
restricted to the shapes of at most five cards (single, pair, trio, trio + single, trio + pair,
bomb, rocket), substitutes its wild cards, reads each substituted multiset with the seeds'
rules (000/002: the four restrictions) and counts per wild rank; the engine's counts
(:mod:`ddzspec.wildcheck`, backwards from the move table) and its forward readings
(:mod:`ddzspec.wild`, from the CSP) must agree with it."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

import pytest

from ddzspec.cards import Cards
from ddzspec.rules import load_rules
from ddzspec.wild import allowed
from ddzspec.wildcheck import compile_wild_report

DROPPED = ("straight", "pair_straight", "plane", "plane_singles", "plane_pairs",
           "four_two_singles", "four_two_pairs")
PLAIN = range(13)   # 3 .. 2: four copies each, never jokers
B, R = 13, 14       # the jokers, one copy each
TIER = {"bomb": 1, "rocket": 2}


def natural(m: tuple[int, ...]) -> list[tuple[str, int, tuple[int, ...]]]:
    """The readings (type, body rank, body counts) of a natural multiset of at most 5 cards
    under classic's restrictions, for the shapes kept: quad_block (4 of a rank only as a bomb),
    a kicker never of the body's rank, the jokers only together as the rocket or one as a
    single kicker."""
    ranks = [i for i, c in enumerate(m) if c]
    n = sum(m)
    out: list[tuple[str, int, tuple[int, ...]]] = []

    def body(i: int, c: int) -> tuple[int, ...]:
        return tuple(c if j == i else 0 for j in range(15))
    if n == 2 and m[B] == m[R] == 1:
        out.append(("rocket", R, body(R, 1)))
    if len(ranks) == 1:
        i = ranks[0]
        kind = {1: "single", 2: "pair", 3: "trio", 4: "bomb"}.get(n)
        if kind:
            out.append((kind, i, body(i, n)))
    if len(ranks) == 2:
        for i in ranks:
            other = next(j for j in ranks if j != i)
            if m[i] == 3 and m[other] == 1:
                out.append(("trio_single", i, body(i, 3)))
            if m[i] == 3 and m[other] == 2:
                out.append(("trio_pair", i, body(i, 3)))
    return out


def wild_moves(rank: int):  # type: ignore[no-untyped-def]
    """Every (natural counts, wild count) of at most 5 cards with no natural card of ``rank``
    (every card of the wild rank is wild) and at most 4 wild cards."""
    others = [i for i in range(15) if i != rank]

    def rec(pos: int, left: int, counts: list[int]):  # type: ignore[no-untyped-def]
        if pos == len(others):
            yield tuple(counts)
            return
        i = others[pos]
        for c in range(0, min(left, 1 if i in (B, R) else 4) + 1):
            counts[i] = c
            yield from rec(pos + 1, left - c, counts)
        counts[i] = 0
    for nat in rec(0, 5, [0] * 15):
        for w in range(0, min(4, 5 - sum(nat)) + 1):
            if sum(nat) + w:
                yield nat, w


def readings_of(nat: tuple[int, ...], w: int, rank: int, no_wild_kicker: bool = False,
                min_natural: int = 0) -> list[tuple[str, tuple[int, ...]]]:
    """Every reading (type, substituted multiset) of a wild move: wild cards alone read as
    themselves; else every substitution of non-joker ranks the deck can hold."""
    if not sum(nat):
        own = tuple(w if i == rank else 0 for i in range(15))
        return [(t, own) for t, _, _ in natural(own)]
    out = []
    for sub in combinations_with_replacement(PLAIN, w):
        s = Counter(sub)
        m = tuple(nat[i] + s[i] for i in range(15))
        if any(c > 4 for c in m):
            continue
        for kind, _, body in natural(m):
            if no_wild_kicker and any(s[i] > body[i] for i in range(15)):
                continue
            if kind == "bomb" and w and 4 - w < min_natural:
                continue
            out.append((kind, m))
    return out


def counts(rank: int, **cut: int) -> dict[str, int]:
    """The categories of ``check`` for one wild rank."""
    c = Counter[str]()
    largest = 0
    for nat, w in wild_moves(rank):
        rs = readings_of(nat, w, rank, **cut)  # type: ignore[arg-type]
        if not rs:
            continue
        c["playable"] += 1
        largest = max(largest, len(rs))
        kinds = {k for k, _ in rs}
        if len(rs) == 1:
            c["one_reading"] += 1
        elif len(kinds) == 1:
            c["several_one_type"] += 1
        else:
            c["several_types"] += 1
        tiers = {TIER.get(k, 0) > 0 for k in kinds}
        if len(tiers) == 2:
            c["crossing_bomb_line"] += 1
    return {"playable": c["playable"], "one_reading": c["one_reading"],
            "several_one_type": c["several_one_type"], "several_types": c["several_types"],
            "crossing_bomb_line": c["crossing_bomb_line"], "largest_choice_set": largest}


RULES = load_rules("laizi", without=DROPPED)
REPORT = compile_wild_report(RULES)


@pytest.mark.parametrize("rank", [4, 12])  # wild 7 and 2 (without chains every rank alike)
def test_check_counts_match_the_independent_enumeration(rank: int) -> None:
    assert REPORT.per_rank["none"][rank].to_json() == counts(rank)


def test_a_hand_worked_count_for_one_wild_rank() -> None:
    # wild 7: the moves on both sides of the bomb line are rrr*, rr** and r*** for the 12 other
    # non-joker ranks r (a soft bomb of r or a trio + single): 3 x 12 = 36
    assert REPORT.per_rank["none"][4].bomb_line == 36
    # 4*** has the most readings of laizi's shapes up to 5 cards? rr*** (5 cards): rrr+XX
    # (12 pairs X != r) or XXX+rr (12 trios X != r): 24; r*** 25 (1 + 12 + 12)
    assert REPORT.per_rank["none"][4].largest == 25


def test_the_file_restrictions_match_the_independent_enumeration(tmp_path: Path) -> None:
    text = Path(RULES.path).read_text(encoding="utf-8")
    wild = text[text.index("wild {"):].replace(
        "reading strongest", "restrict no_wild_kicker, bomb_min_natural 2\n    reading strongest")
    f = tmp_path / "t.rules"
    f.write_text(f'rules t extends "{RULES.path}"\n{wild}', encoding="utf-8")
    rules = load_rules(str(f), without=DROPPED)
    report = compile_wild_report(rules)
    assert report.per_rank["none"][4] == REPORT.per_rank["none"][4]
    assert report.per_rank["file"][4].to_json() == counts(4, no_wild_kicker=True,
                                                         min_natural=2)


def test_forward_readings_match_the_independent_reference() -> None:
    rng = random.Random(26)
    moves = list(wild_moves(4))
    for nat, w in rng.sample(moves, 150):
        got = sorted((r.reading.shape, r.reading.cards.counts)
                     for r in allowed(Cards(nat), w, 4, RULES))
        assert got == sorted(readings_of(nat, w, 4)), (nat, w)


def test_check_json_reports_the_wild_counts_per_rank_and_in_total(cli: Any) -> None:
    args = [a for s in DROPPED for a in ("--without", s)]
    code, out, _ = cli("check", "laizi", *args, "--json")
    assert code == 0
    wild = json.loads(out)["wild"]
    assert wild["policy"] == "strongest" and wild["priority"][:2] == ["rocket", "bomb"]
    none = wild["variants"]["none"]
    assert none["restrictions"] == [] and list(none["per_rank"])[:2] == ["3", "4"]
    assert none["per_rank"]["7"] == counts(4)
    # without chains every non-joker rank is alike: the total is 13 times one rank's counts
    one = counts(4)
    assert none["total"] == {k: (v if k == "largest_choice_set" else 13 * v)
                             for k, v in one.items()}


def test_check_words_say_what_the_policy_settles(cli: Any) -> None:
    args = [a for s in DROPPED for a in ("--without", s)]
    code, out, _ = cli("check", "laizi", *args)
    assert code == 0 and "wild moves (no wild restriction)" in out
    t = REPORT.total("none")
    assert (f"reading strongest: the highest body settles {t.one_type} moves of one type; the "
            f"type priority settles {t.types} moves") in " ".join(out.split())


def test_backwards_from_the_table_equals_forwards_from_the_csp_with_chains() -> None:
    # laizi with its chains (straight, pair straight, plane) but not the kicker-heavy shapes:
    # sampled wild moves summarised both ways, playable or not
    from ddzspec.table import get_table
    from ddzspec.wild import wild_readings
    from ddzspec.wildcheck import move_key, summary
    rules = load_rules("laizi", without=("plane_singles", "plane_pairs", "four_two_singles",
                                         "four_two_pairs"))
    rng = random.Random(2026)
    natural = sorted(get_table(rules).entries)
    moves: dict[int, tuple[tuple[int, ...], int]] = {}
    while len(moves) < 60:
        m = list(Cards.from_key(rng.choice(natural)).counts)
        if rng.random() < 0.3:  # some moves no substitution makes legal
            m[rng.randrange(13)] += 1
        w = rng.choice((1, 1, 2, 2, 3))
        for _ in range(w):  # make w of its cards wild (never a joker)
            held = [i for i in range(13) if m[i]]
            if held:
                m[rng.choice(held)] -= 1
        nat = tuple(min(c, 4) for c in m)
        absent = [i for i in range(13) if not nat[i]]
        if sum(nat) and absent and sum(nat) + w <= rules.max_cards:
            moves[move_key(nat, w)] = (nat, w)
    keep = dict.fromkeys(moves, (0, 0, False))
    compile_wild_report(rules, keep=keep)
    # the sample holds unplayable moves, moves of several readings and chains
    assert any(v[0] == 0 for v in keep.values()) and any(v[0] > 1 for v in keep.values())
    chains = {i for i, s in enumerate(rules.shapes) if s.group == "chain"}
    assert any(v[1] >> i & 1 for v in keep.values() for i in chains)
    for key, (nat, w) in moves.items():
        rank = next(i for i in range(13) if not nat[i])
        forwards = summary(rules, wild_readings(Cards(nat), w, rank, rules))
        assert keep[key] == forwards, (Cards(nat), w)


def test_the_wild_report_is_cached_and_a_damaged_cache_is_recomputed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ddzspec.wildcheck as wc
    from ddzspec.errors import CacheWarning
    monkeypatch.setenv("DDZSPEC_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(wc, "_REPORTS", {})
    assert wc.wild_report(RULES).per_rank == REPORT.per_rank
    path = wc.report_path(RULES)
    assert path.parent == tmp_path and path.is_file()
    wc._REPORTS.clear()
    assert wc.wild_report(RULES).per_rank == REPORT.per_rank  # read back from the file
    text = path.read_text()
    # another rank's counts, a file cut in half, another JSON value: never trusted
    for damaged in (text.replace('"7"', '"8"', 1), text[:len(text) // 2], "[]"):
        path.write_text(damaged)
        wc._REPORTS.clear()
        with pytest.warns(CacheWarning, match="cached wild report .* ignored"):
            assert wc.wild_report(RULES).per_rank == REPORT.per_rank


def test_diff_compares_two_wild_policies_by_their_counts(cli: Any, tmp_path: Path) -> None:
    """``diff`` of laizi (strongest) against laizi under ``reading declared`` and against laizi
    restricted (no wild kicker, bombs with 2 natural cards): the counts of each file under its
    own restrictions, per wild rank and in total, from the independent enumeration above."""
    from wild_helpers import declared_laizi, restricted_laizi
    args = [a for s in DROPPED for a in ("--without", s)]
    one = counts(4)
    total = {k: (v if k == "largest_choice_set" else 13 * v) for k, v in one.items()}
    several = one["several_one_type"] + one["several_types"]
    code, out, _ = cli("diff", "laizi", declared_laizi(tmp_path).path, *args, "--json")
    assert code == 1  # the wild sections differ
    w = json.loads(out)["wild"]
    assert w["a"]["per_rank"]["7"] == w["b"]["per_rank"]["7"] == one
    assert w["a"]["total"] == w["b"]["total"] == total and not w["same"]
    # what each policy settles: the same moves, by the highest body and the priority, or by
    # the player
    assert w["a"]["settles"] == {"declared": 0, "highest_body": 13 * one["several_one_type"],
                                 "priority": 13 * one["several_types"]}
    assert w["b"]["settles"] == {"declared": 13 * several, "highest_body": 0, "priority": 0}
    restricted = restricted_laizi(tmp_path, "no_wild_kicker, bomb_min_natural 2").path
    code, out, _ = cli("diff", "laizi", restricted, *args, "--json")
    w = json.loads(out)["wild"]
    cut = counts(4, no_wild_kicker=True, min_natural=2)
    assert w["b"]["restrictions"] == ["no_wild_kicker", "bomb_min_natural 2"]
    assert w["a"]["per_rank"]["7"] == one and w["b"]["per_rank"]["7"] == cut
    # by hand, wild 7, r another rank: rrr* is the soft bomb rrrr or rrr + a wild kicker (cut);
    # rr** the bomb rrrr or rrr + a wild kicker (cut); r*** the bomb with one natural card
    # (cut), rrr + a wild kicker (cut) or the wild trio XXX + r (kept): none crosses the bomb
    # line any more (laizi: 3 x 12 = 36 per rank)
    assert (one["crossing_bomb_line"], cut["crossing_bomb_line"]) == (36, 0)
    assert w["b"]["total"]["crossing_bomb_line"] == 0
    code, out, _ = cli("diff", "laizi", restricted, *args)
    lines = out.splitlines()
    row = next(line for line in lines if line.startswith("  7 "))
    assert f"playable {one['playable']} -> {cut['playable']}" in row
    assert "bomb line 36 -> 0" in row
    # laizi without the dropped shapes: every count 13 times wild 7's (no chain: ranks alike)
    assert any(line.endswith(f": reading strongest: the highest body settles "
                             f"{13 * one['several_one_type']} moves, the type priority "
                             f"{13 * one['several_types']} (468 on both sides of the bomb "
                             "line)") for line in lines)


def test_check_of_the_declared_example_reports_the_choice_sets(cli: Any) -> None:
    """examples/laizi-declared.rules (``reading declared``): ``check`` reports how many moves
    offer a choice of readings and the largest choice set, as the enumeration counts them."""
    example = Path(__file__).parents[2] / "examples" / "laizi-declared.rules"
    args = [a for s in DROPPED for a in ("--without", s)]
    one = counts(4)
    several = 13 * (one["several_one_type"] + one["several_types"])
    code, out, _ = cli("check", str(example), *args)
    assert code == 0
    # r*** (r not the wild rank): the soft bomb rrrr, rrr + X and XXX + r: 1 + 12 + 12 = 25
    assert one["largest_choice_set"] == 25
    assert (f"reading declared: {several} moves offer a choice of readings (the player states "
            "one); the largest choice set has 25 readings") in " ".join(out.split())
    code, out, _ = cli("check", str(example), *args, "--json")
    wild = json.loads(out)["wild"]
    assert wild["policy"] == "declared" and wild["variants"]["none"]["per_rank"]["7"] == one
