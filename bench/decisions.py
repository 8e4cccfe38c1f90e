"""Digest of the computer players' decisions: proof that a speed change changes no decision.

Plays self-play deals (every seat at one level) of each variant and prints one sha256 per level
and variant over the transcripts — per deal its seed, then every action (seat, kind, value,
cards) in order, then the result (winner, landlord, scores): see
:func:`ddzspec.players.base.transcript`. Run it before and after a change
that must not alter what the players decide: the digests must be equal.

- Levels 1 and 2: ``--deals`` deals per variant (default 300), seeds ``decisions:{k}``.
- Level 3: ``--deals3`` deals per variant (default 1), seeds ``decisions3:{k}``. Its work is
  counted in rollout steps, ``steps_per_second`` × ``budget``, so the decision does not depend
  on the clock unless its wall-clock guard fires (85 % of the budget) or the endgame solver
  runs out of its time. To keep the guard from firing on a loaded machine, level 3 is built
  with a 100-second budget and ``steps_per_second`` scaled down so that the step budget is
  exactly that of the default player (0.5 s × 3,000 = 1,500 steps): identical decisions to
  ``Level3(seed)`` on an idle machine, whatever the load here.

Run: ``DDZSPEC_CACHE_DIR=/tmp/cache python bench/decisions.py [--deals 300] [--deals3 1]
[--variants classic,kawu,duel] [--levels 1,2,3]``. Prints one line per level and variant:
``level L VARIANT: N deals, M decisions, sha256 HEX (wall and CPU seconds)`` and a final
``all: HEX`` line (the digest of the digests).

Last run (after the players' speed work: memoised level-2 plans, a faster move-table index,
``prepare``):
identical digests before (commit 5a95d0e) and after, ``--deals 300 --deals3 3``:

- level 1: classic ``e7dac278…``, kawu ``b6785235…``, duel ``d6eb64b2…``
- level 2: classic ``f6261a9c…``, kawu ``cac9bb03…``, duel ``07ca9853…``
- level 3: classic ``51bd505c…``, kawu ``1f0806c1…``, duel ``aa5f7b7b…``
"""

from __future__ import annotations

import argparse
import hashlib
import time
from collections.abc import Sequence

#: Level 3's default step budget: 0.5 s × 3,000 steps per second.
L3_STEPS = 1500
#: Level 3's budget here (seconds), so large that the wall-clock guard never fires.
L3_BUDGET = 100.0


def deal_text(rules_name: str, level: int, seed: str) -> tuple[str, int]:
    """One self-play deal of ``level`` from ``seed``: its transcript text and the number of
    decisions taken."""
    from ddzspec.players import player_for
    from ddzspec.players.arena import play_deal
    from ddzspec.players.base import transcript
    from ddzspec.players.level3 import Level3
    from ddzspec.rules import load_rules
    rules = load_rules(rules_name)
    n = rules.deal.players
    if level == 3:
        players = [Level3(f"{seed}:{s}", budget=L3_BUDGET,
                          steps_per_second=int(L3_STEPS / L3_BUDGET)) for s in range(n)]
    else:
        players = [player_for(level, f"{seed}:{s}") for s in range(n)]
    state = play_deal(rules, players, seed)
    return f"deal {seed}\n" + transcript(state), len(state.log)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300, help="deals per variant, levels 1-2")
    ap.add_argument("--deals3", type=int, default=1, help="deals per variant, level 3")
    ap.add_argument("--variants", default="classic,kawu,duel")
    ap.add_argument("--levels", default="1,2,3")
    args = ap.parse_args(argv)
    total = hashlib.sha256()
    for level in (int(x) for x in args.levels.split(",")):
        for name in args.variants.split(","):
            h = hashlib.sha256()
            count = args.deals3 if level == 3 else args.deals
            prefix = "decisions3" if level == 3 else "decisions"
            decisions = 0
            t0 = time.perf_counter()
            c0 = time.process_time()
            for k in range(count):
                text, n = deal_text(name, level, f"{prefix}:{k}")
                h.update(text.encode())
                decisions += n
            total.update(h.digest())
            print(f"level {level} {name}: {count} deals, {decisions} decisions, sha256 "
                  f"{h.hexdigest()} ({time.perf_counter() - t0:.1f} s wall, "
                  f"{time.process_time() - c0:.1f} s CPU)", flush=True)
    print(f"all: {total.hexdigest()}", flush=True)


if __name__ == "__main__":
    main()
