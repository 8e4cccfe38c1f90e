"""Benchmark of the game engine. Prints figures; asserts nothing.

- legal-move generation per second: 1,000 random 20-card hands leading, and 1,000 random 17-card
  hands answering a random move (a random lead of another random hand), bombs and rocket
  included; ddzspec's per-mask memo caches start cold;
- full self-play deals per second per variant (level-2 players, ``ddzspec.players``);
- with ``--compare PYTHON``: the same hands through rlcard's and DouZero's generators (PyPI
  packages ``rlcard``, ``douzero``), run by PYTHON — an interpreter of a separate environment
  where they are installed (never ddzspec's own dependencies), e.g. ``BENCH_VENV/bin/python``.
  The comparison also counts the hands on which their move sets equal ddzspec's classic sets
  (their rules differ from seeds 000/002 in places: both jokers as kickers, 444555+BR, in DouZero;
  three kickers of one rank, TTTJJJQQQ+888, in rlcard — restriction 4 forbids both).

Goal: ddzspec ≥ 3× faster than both. Run:
``python bench/game.py [--n 1000] [--deals 200] [--compare BENCH_VENV/bin/python]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import tempfile
import time

# --------------------------------------------------------------------------- the other tools
# This part runs in the bench environment (no ddzspec there): reads hands from a JSON file,
# prints {"tool": {"lead_s", "answer_s", "lead_sets", "answer_sets"}}.
EXTERNAL = r'''
import json, sys, time, types
data = json.load(open(sys.argv[1]))
leads, answers = data["leads"], data["answers"]   # counts (15) ; [counts, move counts]
R = data.get("repeat", 1)

def best(f):  # (best time of R runs, last result)
    t_best, res = None, None
    for _ in range(R):
        t = time.perf_counter()
        res = f()
        dt = time.perf_counter() - t
        t_best = dt if t_best is None else min(t_best, dt)
    return t_best, res
RL = "3456789TJQKA2BR"
DZ = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]
out = {}

def rl_str(c):
    return "".join(RL[i] * n for i, n in enumerate(c))

def dz_list(c):
    return [DZ[i] for i, n in enumerate(c) for _ in range(n)]

def uniq(keys):  # a move set: duplicates (DouZero lists some moves twice) count once
    return sorted({tuple(k) for k in keys})

def rl_key(s):
    c = [0] * 15
    for ch in s:
        c[RL.index(ch)] += 1
    return c

def dz_key(m):
    c = [0] * 15
    for x in m:
        c[DZ.index(x)] += 1
    return c

try:
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import get_gt_cards
    hs = [rl_str(c) for c in leads]
    lead_s, res = best(lambda: [DoudizhuJudger.playable_cards_from_hand(h) for h in hs])
    class Card:
        def __init__(self, r):
            self.rank, self.suit = (r, "") if r not in "BR" else ("", "BJ" if r == "B" else "RJ")
    players = [(types.SimpleNamespace(current_hand=[Card(ch) for ch in rl_str(h)]),
                types.SimpleNamespace(played_cards=rl_str(m))) for h, m in answers]
    answer_s, ans = best(lambda: [get_gt_cards(p, g) for p, g in players])
    out["rlcard"] = {"lead_s": lead_s, "answer_s": answer_s,
                     "lead_sets": [uniq(map(rl_key, r)) for r in res],
                     "answer_sets": [uniq(rl_key(x) for x in r if x != "pass") for r in ans]}
except Exception as e:  # report, do not fail the bench
    out["rlcard"] = {"error": f"{type(e).__name__}: {e}"}

try:
    from douzero.env.game import GameEnv
    from douzero.env.move_generator import MovesGener
    hs = [dz_list(c) for c in leads]
    lead_s, res = best(lambda: [MovesGener(h).gen_moves() for h in hs])
    fakes = [types.SimpleNamespace(info_sets={"x": types.SimpleNamespace(
                 player_hand_cards=dz_list(h))}, acting_player_position="x",
                 card_play_action_seq=[dz_list(m)]) for h, m in answers]
    answer_s, ans = best(lambda: [GameEnv.get_legal_card_play_actions(f) for f in fakes])
    out["douzero"] = {"lead_s": lead_s, "answer_s": answer_s,
                      "lead_sets": [uniq(dz_key(m) for m in r) for r in res],
                      "answer_sets": [uniq(dz_key(m) for m in r if m) for r in ans]}
except Exception as e:
    out["douzero"] = {"error": f"{type(e).__name__}: {e}"}
print(json.dumps(out))
'''


def random_hand(rng: random.Random, deck: list[int], n: int) -> list[int]:
    c = [0] * 15
    for i in rng.sample(deck, n):
        c[i] += 1
    return c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=1000, help="hands per measurement")
    ap.add_argument("--deals", type=int, default=200, help="self-play deals per variant")
    ap.add_argument("--compare", metavar="PYTHON", default=None,
                    help="interpreter of an environment with rlcard and douzero installed")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=3,
                    help="time each generator this many times, keep the best (the first "
                         "ddzspec pass starts from cold memo caches and is reported too)")
    args = ap.parse_args()

    os.environ.setdefault("DDZSPEC_CACHE_DIR", tempfile.mkdtemp(prefix="ddzspec-bench-"))
    from ddzspec.game import GameState
    from ddzspec.moves import move_index
    from ddzspec.players import player_for
    from ddzspec.rules import load_rules

    rules = load_rules("classic")
    t = time.perf_counter()
    idx = move_index(rules)
    print(f"classic move index (table cached/compiled + index): {time.perf_counter() - t:.2f} s")
    rng = random.Random(args.seed)
    deck = [i for i in range(15) for _ in range(rules.deck[i])]
    leads = [random_hand(rng, deck, 20) for _ in range(args.n)]
    answers = []
    for _ in range(args.n):  # the move to answer: a random lead of another random hand
        h = random_hand(rng, deck, 17)
        prev = rng.choice(idx.leads(random_hand(rng, deck, 20)))
        answers.append((h, prev))
    idx = move_index(rules)
    for cache in idx.plain_groups:  # time from cold memo caches
        cache[2].clear()

    n = args.n
    t = time.perf_counter()
    our_leads = [idx.leads(h) for h in leads]
    cold_s = time.perf_counter() - t
    lead_s = cold_s
    for _ in range(args.repeat - 1):
        t = time.perf_counter()
        our_leads = [idx.leads(h) for h in leads]
        lead_s = min(lead_s, time.perf_counter() - t)
    answer_s = float("inf")
    for _ in range(max(1, args.repeat)):
        t = time.perf_counter()
        our_answers = [idx.answers(h, p) for h, p in answers]
        answer_s = min(answer_s, time.perf_counter() - t)
    print(f"ddzspec leading, first pass from cold memo caches: {n / cold_s:,.0f} hands/s")
    print(f"ddzspec legal moves, classic: leading 20 cards {n / lead_s:,.0f} hands/s "
          f"({1e6 * lead_s / n:.0f} µs/hand, {sum(map(len, our_leads)) / n:.1f} moves); "
          f"answering with 17 cards {n / answer_s:,.0f} hands/s "
          f"({1e6 * answer_s / n:.0f} µs/hand, {sum(map(len, our_answers)) / n:.1f} moves)")

    for name in ("classic", "kawu", "duel"):
        r = load_rules(name)
        move_index(r)
        level2 = player_for(2)
        t = time.perf_counter()
        actions = 0
        for seed in range(args.deals):
            g = GameState.new(r, seed=seed)
            while not g.over:
                g = g.apply(level2.decide(g.view(g.turn)))
                actions += 1
        dt = time.perf_counter() - t
        print(f"self-play {name}: {args.deals / dt:,.0f} deals/s "
              f"({actions / args.deals:.0f} actions/deal, heuristic players)")

    if not args.compare:
        return
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "hands.json")
        script = os.path.join(d, "external.py")
        with open(data, "w") as f:
            json.dump({"leads": leads, "repeat": args.repeat,
                       "answers": [(h, list(p.cards.counts)) for h, p in answers]}, f)
        with open(script, "w") as f:
            f.write(EXTERNAL)
        proc = subprocess.run([args.compare, script, data], capture_output=True, text=True,
                              check=False)
    if proc.returncode != 0:
        print(f"comparison failed (exit {proc.returncode}):\n{proc.stderr.strip()[-2000:]}")
        return
    ext = json.loads(proc.stdout.strip().splitlines()[-1])
    ours_l = [sorted(list(m.cards.counts) for m in ms) for ms in our_leads]
    ours_a = [sorted(list(m.cards.counts) for m in ms) for ms in our_answers]
    for res in ext.values():
        for k in ("lead_sets", "answer_sets"):
            if k in res:
                res[k] = [[list(m) for m in ms] for ms in res[k]]
    for tool, res in ext.items():
        if "error" in res:
            print(f"{tool}: could not run: {res['error']}")
            continue
        same_l = sum(a == b for a, b in zip(res["lead_sets"], ours_l))
        same_a = sum(a == b for a, b in zip(res["answer_sets"], ours_a))
        print(f"{tool}: leading {n / res['lead_s']:,.0f} hands/s "
              f"(ddzspec {res['lead_s'] / lead_s:.1f}x faster), answering "
              f"{n / res['answer_s']:,.0f} hands/s (ddzspec {res['answer_s'] / answer_s:.1f}x "
              f"faster); same move set as ddzspec on {same_l}/{n} leads, {same_a}/{n} answers")


if __name__ == "__main__":
    main()
