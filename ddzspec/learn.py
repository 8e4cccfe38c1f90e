"""Learning a rules file (the web table's Learn tab): every shape with real example moves, every
restriction with the readings it rules out, bidding and scoring in words
(:func:`rules_overview`), and the difference between two rules files in plain sentences
(:func:`diff_words`). Everything is generated from the loaded rules, never from a list of
classic shapes (how: docs/web-table.md, "Learning"). Seeds: classic 000/002, kawu 004, duel 003.

>>> from ddzspec.rules import load_rules
>>> o = rules_overview(load_rules("classic"))
>>> o.shape("trio_single").examples[0], o.shape("straight").sizes[:3]
('333+4', (5, 6, 7))
>>> diff_words(load_rules("classic"), load_rules("kawu"))[0]
'restrictions: kawu adds distinct_kicker_ranks (the kickers of one move all have different ...'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .cards import ALL_RANKS, N_RANKS, Cards
from .readings import Reading, make_reading, solve_readings
from .restrictions import holds, words
from .rules import (
    BiddingSystem,
    FirstBidder,
    RobOrder,
    Round,
    RoundKind,
    RoundOrder,
    RoundStage,
    Rules,
    Scope,
    Shape,
    TalonFactor,
    TalonPattern,
    Target,
    rank_symbol,
    resolved_text,
)
from .rules.model import BombClass, ReadingPolicy
from .table import body_kickers, shape_bodies

#: Example moves shown per shape (smallest, middle, largest body).
SHAPE_EXAMPLES = 3
#: Example readings shown per restriction.
RULED_OUT_EXAMPLES = 5


@dataclass(frozen=True, slots=True)
class ShapeOverview:
    """One shape in words: ``name``; ``description`` (plain words generated from the shape's
    ``COPIES x RUN [in GROUP] [+ kickers]``); ``spec`` (that rules-language text); ``sizes``
    (card counts its moves have, within the largest hand); ``tier`` (0 ordinary; higher beats
    every lower tier); ``examples`` (real legal moves, canonical notation: the smallest body,
    a middle one and the largest, with the lowest kickers the restrictions allow)."""

    name: str
    description: str
    spec: str
    sizes: tuple[int, ...]
    tier: int
    examples: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"name", "description", "spec", "sizes", "tier", "examples"}``."""
        return {"name": self.name, "description": self.description, "spec": self.spec,
                "sizes": list(self.sizes), "tier": self.tier, "examples": list(self.examples)}


@dataclass(frozen=True, slots=True)
class RuledOut:
    """One reading a restriction rules out: ``reading`` (``plane_singles 444555+4+5``),
    ``cards`` (the multiset), ``verdict`` (what the multiset is under the rules:
    ``illegal`` or its reading, e.g. ``four_two_singles 4444+5+5``) and ``also`` (the other
    restrictions that rule it out too)."""

    reading: str
    cards: str
    verdict: str
    also: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"reading", "cards", "verdict", "also"}``."""
        return {"reading": self.reading, "cards": self.cards, "verdict": self.verdict,
                "also": list(self.also)}


@dataclass(frozen=True, slots=True)
class RestrictionOverview:
    """One restriction: ``name``, ``words`` (plain words, with its seed), ``count`` (candidate
    readings — shape, body and kickers, every restriction lifted — that break it),
    ``count_alone`` (those it alone rules out: they meet every other restriction) and
    ``examples`` (a few of them, smallest first, those it alone rules out first)."""

    name: str
    words: str
    count: int
    count_alone: int
    examples: tuple[RuledOut, ...]

    @property
    def ruled_out(self) -> tuple[str, ...]:
        """The example readings as text."""
        return tuple(x.reading for x in self.examples)

    def to_json(self) -> dict[str, Any]:
        """``{"name", "words", "ruled_out": [reading, …], "count", "count_alone",
        "examples": [{"reading", "cards", "verdict", "also"}]}``."""
        return {"name": self.name, "words": self.words, "ruled_out": list(self.ruled_out),
                "count": self.count, "count_alone": self.count_alone,
                "examples": [x.to_json() for x in self.examples]}


@dataclass(frozen=True, slots=True)
class RulesOverview:
    """A rules file in words: ``name``, ``title``, ``text`` (the resolved rules file),
    ``shapes``, ``restrictions``, ``deal`` and ``bidding`` (a paragraph each), ``play`` (trick
    and win in sentences) and ``scoring`` (sentences)."""

    name: str
    title: str
    text: str
    shapes: tuple[ShapeOverview, ...]
    restrictions: tuple[RestrictionOverview, ...]
    deal: str
    bidding: str
    play: tuple[str, ...]
    scoring: tuple[str, ...]

    def shape(self, name: str) -> ShapeOverview:
        """The shape called ``name``; KeyError if absent."""
        for s in self.shapes:
            if s.name == name:
                return s
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """``{"name", "title", "text", "shapes": [...], "restrictions": [...], "deal",
        "bidding", "play": [...], "scoring": [...]}`` (see the parts' ``to_json``)."""
        return {"name": self.name, "title": self.title, "text": self.text,
                "shapes": [s.to_json() for s in self.shapes],
                "restrictions": [r.to_json() for r in self.restrictions],
                "deal": self.deal, "bidding": self.bidding, "play": list(self.play),
                "scoring": list(self.scoring)}

    def lines(self) -> list[str]:
        """The overview as plain text, one line per list item (``rules overview``)."""
        out = [f"{self.name}: {self.title}", "", "Deal: " + self.deal,
               "Bidding: " + self.bidding, "", "Shapes:"]
        for s in self.shapes:
            out.append(f"  {s.name} = {s.spec}: {s.description}")
            n = s.sizes[-1] if s.sizes else 0
            out.append(f"    sizes {', '.join(map(str, s.sizes))} card{'s' if n != 1 else ''}; "
                       "e.g. "
                       + ", ".join(s.examples))
        out += ["", "Restrictions:"]
        if not self.restrictions:
            out.append("  none")
        for r in self.restrictions:
            out.append(f"  {r.name}: {r.words}")
            out.append(f"    rules out {r.count} candidate readings ({r.count_alone} of them "
                       "alone), e.g.:")
            for x in r.examples:
                also = f"; also {', '.join(x.also)}" if x.also else ""
                out.append(f"      {x.reading} ({x.cards} is {x.verdict}{also})")
        out += ["", "Play:"] + [f"  {x}" for x in self.play]
        out += ["", "Scoring:"] + [f"  {x}" for x in self.scoring]
        return out


# --------------------------------------------------------------------------- words

_UNIT = {1: "card", 2: "pair", 3: "trio", 4: "four of a kind"}


def _units(copies: int, n: int) -> str:
    word = _UNIT.get(copies, f"{copies} of a kind")
    return word if n == 1 else ("fours of a kind" if copies == 4 else word + "s")


def _ranks(idx: tuple[int, ...] | list[int]) -> str:
    return " ".join(ALL_RANKS[i].symbol() for i in idx)


def shape_words(shape: Shape, rules: Rules) -> str:
    """Plain words for a shape, from its description: ``3 x 2.. in chain + each single`` ->
    "2 to 5 trios of consecutive ranks of the chain (3..A), plus one single kicker per trio"
    (the upper bound is what the largest hand allows)."""
    c = shape.copies
    top = max((r for r in range(shape.run_min, shape.run_max + 1)
               if shape.size(r) <= rules.max_cards), default=shape.run_min)
    where = ""
    if shape.group:
        seq = shape.ring
        wrap = (f"wraps: after {_ranks([seq[-1]])} comes {_ranks([seq[0]])} again, a chain "
                "ranks by its top's place" if shape.wraps else "no wrap")
        where = (f" of the chain order {_ranks(list(seq))} (the {shape.group}; {wrap})"
                 if shape.chain_order else
                 f" of the {shape.group} ({_ranks([seq[0]])}..{_ranks([seq[-1]])})")
    if shape.run_min == top == 1:
        body = "one card" if c == 1 else f"{c} cards of one rank"
        if shape.group:
            body += f" of the {shape.group} ({_ranks(list(shape.ring))})"
    elif shape.group and shape.run_min == top == len(shape.seq):
        body = f"every rank of the {shape.group} ({_ranks(list(shape.seq))}), {c} each" \
            if c > 1 else f"every rank of the {shape.group} ({_ranks(list(shape.seq))})"
    else:
        n = f"{shape.run_min}" if shape.run_min == top else f"{shape.run_min} to {top}"
        body = f"{n} {_units(c, 2)} of consecutive ranks{where or ' of the order'}"
    last = ", only as the move that empties the hand" if shape.last_play else ""
    if shape.kicker_kind is None:
        return body + ", nothing added" + last
    kind = shape.kicker_kind
    line = " on consecutive ranks" if shape.kickers_consecutive else ""
    if shape.kicker_each:
        return body + f", plus one {kind} kicker per {_units(c, 1)}{line}" + last
    k = shape.kicker_count
    return body + f", plus {k} {kind} kicker{'s' if k != 1 else ''}{line}" + last


def _order_key(cards: Cards, rules: Rules) -> tuple[int, tuple[int, ...]]:
    """Smallest first: fewest cards, then the lowest highest card (by the rules' order)."""
    desc = sorted((rules.strength[i] for i in range(N_RANKS) for _ in range(cards.counts[i])),
                  reverse=True)
    return len(cards), tuple(desc)


def _shape_examples(rules: Rules, index: int, notation: str) -> tuple[str, ...]:
    """Real legal moves of shape ``index``: smallest, middle and largest body, each with the
    first kicker set (hint order) whose move reads as this shape and nothing else."""
    shape = rules.shapes[index]
    bodies = list(shape_bodies(rules, index))
    picks = dict.fromkeys([0, len(bodies) // 2, len(bodies) - 1]) if bodies else {}
    out: list[str] = []
    for p in picks:
        start, run = bodies[p]
        for tries, (_, kick) in enumerate(body_kickers(rules, index, start, run)):
            if tries >= 30:
                break
            counts = list(kick)
            for i in shape.seq[start:start + run]:
                counts[i] += shape.copies
            got = solve_readings(counts, rules)
            if len(got) == 1 and got[0].shape == shape.name:
                out.append(got[0].format(notation))
                break
    return tuple(dict.fromkeys(out))[:SHAPE_EXAMPLES]


def _deal_words(rules: Rules) -> str:
    d = rules.deal
    talon = {0: "there is no talon", 1: "1 card is the talon, which goes to the landlord"}
    s = (f"{d.players} players, {d.hand} cards each from a deck of {rules.deck_size}; "
         + talon.get(d.talon, f"{d.talon} cards are the talon, which goes to the landlord"))
    if d.undealt:
        s += f"; {d.undealt} cards are never dealt nor shown"
    return s + f"; play turns {d.turn}."


def _bidding_words(rules: Rules) -> str:
    """The bidding in sentences, with the rounds in the order a deal meets them: those
    before the bidding (before and after the deal) first, then the bidding, then the rest."""
    said = _round_sentences(rules)
    pre = [x for r, x in said if r.stage.before_bidding]
    post = "".join(f" Then {x}" for r, x in said if not r.stage.before_bidding)
    if not pre:
        return _bidding_core(rules) + post
    first = "First " + " Then ".join(pre)
    return f"{first} Then the bidding: {_bidding_core(rules)}{post}"


def _bidding_core(rules: Rules) -> str:
    """The bidding itself in words (no rounds)."""
    b = rules.bidding
    first = b.first_speaker.value + (
        " first speaker (or the first seat to show its cards, when one did)"
        if b.first_to_show_speaks_first else " first speaker")
    if b.system is BiddingSystem.AUCTION:
        top = b.ends_at if b.ends_at is not None else max(b.bids)
        again = ("the first bidder is drawn at random again"
                 if b.all_pass_first_bidder is FirstBidder.RANDOM else "the next player bids first")
        return (f"an auction, from a {first}: each player speaks once, "
                f"bidding {' or '.join(map(str, b.bids))} strictly above the current bid, or "
                f"passing; a bid of {top} ends it at once. The highest bidder is the landlord "
                f"and the bid is the base. If all pass, the deal is void and redealt, and "
                f"{again}.")
    robs = "each rob doubles the multiplier" if "rob" in rules.scoring.double else \
        "robs do not double"
    nocall = ("if nobody calls, the first speaker is the landlord" if
              b.no_call_first_speaker_landlord else "if nobody calls, the deal is redealt")
    if b.rob_order is RobOrder.EACH_ONCE_CALLER_LAST:
        return (f"call and rob, from a {first}: the players are asked "
                "in turn to call the landlord; after a call each other player that did not "
                "decline to call may rob once, in turn; if anyone robbed, the caller has one "
                "last word (rob back and be the landlord, or leave it to the last robber); "
                f"{robs}; {nocall}.")
    return (f"call and rob, from a {first}: a player may call the "
            f"landlord; after a call the other players may rob it in turn (at most "
            f"{b.max_robs} robs; the last robber is the landlord, and a refusal to rob leaves "
            f"it with the last caller or robber); {robs}; {nocall}.")


_ORDER_WORDS = {
    RoundOrder.LANDLORD_PEASANTS: "the landlord first, then each peasant once",
    RoundOrder.PEASANTS_LANDLORD: "each peasant once, then the landlord",
    RoundOrder.PEASANTS_LANDLORD_IF_DOUBLED: "each peasant once, then the landlord only if a "
                                             "peasant chose a factor above 1",
    RoundOrder.LANDLORD: "the landlord alone",
    RoundOrder.ALL: "every seat once, in turn",
}


def _round_sentences(rules: Rules) -> list[tuple[Round, str]]:
    """Each round of ``rules`` in a sentence (``a show round after the deal, asking …``), in
    the order a deal meets them."""
    out = []
    for i, r in enumerate(rules.rounds):
        choices = ", ".join(f"{c.name} x{c.times}" for c in r.choices)
        answer = ("" if not r.answers else
                  "; the landlord answers with " + ", ".join(f"{c.name} x{c.times}"
                                                             for c in r.answers))
        if r.answer_scope is Scope.DOUBLERS:
            answer += ", for the settlements of the peasants who chose above x1 only"
        landlords = ("" if r.answer_scope is Scope.DOUBLERS  # said with its answer
                     else ", the landlord's for the whole table")
        scope = (f"a peasant's factor is for its own settlement with the landlord{landlords}"
                 if r.scope is Scope.PAIR else "every factor multiplies the whole table")
        whose = "a peasant's choices" if r.answers else "the choices"
        unseen = (", before any seat sees its cards (a hand shown then is face up once dealt)"
                  if r.stage is RoundStage.BEFORE_DEAL else "")
        again = ("; a seat whose hand is already shown is not asked again"
                 if r.kind is RoundKind.SHOW
                 and any(x.kind is RoundKind.SHOW for x in rules.rounds[:i]) else "")
        out.append((r, f"a {r.kind} round {r.stage.words}, asking {_ORDER_WORDS[r.order]}"
                        f"{unseen}: {whose} are {choices}{answer}; {scope}{again}."))
    return out


def _play_words(rules: Rules) -> tuple[str, ...]:
    t, w = rules.trick, rules.win
    out = ["The landlord leads the first trick; each next player beats the last move (same "
           "type and number of cards, higher body) or passes"
           + ("" if t.leader_may_pass else "; the leader may not pass") + ".",
           f"A trick closes after {t.close_after} pass{'es' if t.close_after != 1 else ''} in a "
           "row; its last player leads the next one."]
    tiered = sorted((s for s in rules.shapes if s.tier), key=lambda s: -s.tier)
    if tiered:
        out.append("Precedence: " + " > ".join(s.name for s in tiered) +
                   " > every other shape; a higher one beats any lower one.")

    def target(x: Target, who: str) -> str:
        """``the landlord wins by playing every card``; the peasants (two or more) win when
        one of them does."""
        if x == "robs":
            how = "with as many cards left as there were robs (the duel handicap)"
        elif x == 0:
            how = "by playing every card"
        else:
            how = f"with {x} card{'' if x == 1 else 's'} left"
        if who == "peasant" and rules.deal.players > 2:
            return f"the peasants win when one of them goes out {how}" if x else \
                "the peasants win when one of them plays every card"
        return f"the {who} wins {how}"
    out.append(target(w.landlord, "landlord").capitalize() + "; "
               + target(w.peasant, "peasant") + ".")
    return tuple(out) + _wild_words(rules)


_CLASS_WORDS = {BombClass.SOFT: "soft (natural and wild cards)",
                BombClass.HARD: "hard (natural cards only)",
                BombClass.PURE: "pure (wild cards only)"}


def _wild_words(rules: Rules) -> tuple[str, ...]:
    """The wild cards in sentences (empty without a wild section)."""
    wild = rules.wild
    if wild is None:
        return ()
    out = [f"Wild cards: a rank ({d.name}) is drawn {d.stage.words} from "
           f"{_ranks(d.ranks)} (never a joker) and shown to every seat; its cards are wild."
           for d in wild.draws]
    out.append("Inside a combination a wild card stands for any rank but a joker, its own "
               "included; wild cards played alone are themselves.")
    order = " > ".join(_CLASS_WORDS.get(BombClass(n), n) if n in set(BombClass) else n
                       for n in wild.order)
    out.append(f"{wild.bomb.capitalize()}s by how wild cards made them: {order}; factors "
               + ", ".join(f"{c.value} x{n}" for c, n in wild.factors) + ".")
    if wild.lengths:
        out.append(f"A {wild.bomb} holds {wild.lengths[0]} to {wild.lengths[-1]} cards (longer "
                   "than " + str(wild.lengths[0]) + ": natural and wild cards, soft); two "
                   f"{wild.bomb}s compare by " + ", then ".join(k.value for k in wild.ladder)
                   + f"; one longer than {wild.lengths[0]} x{wild.long_factor}.")
    if wild.policy is ReadingPolicy.DECLARED:
        out.append("A move with several readings is read as its player declares.")
    else:
        out.append("A move with several readings: answering, its reading of the answered type "
                   "and size with the highest body (else a bomb); leading, the first type of "
                   + " > ".join(wild.priority) + ".")
    if wild.restrictions:
        out.append("Readings cut: " + ", ".join(map(str, wild.restrictions)) + ".")
    return tuple(out)


_EVENT_WORDS = {
    "spring": "a spring (the landlord goes out before any peasant has played a card)",
    "anti_spring": "an anti-spring (a peasant goes out while the landlord has played only "
                   "the opening lead)",
    "rob": "each rob",
}


_TALON_WORDS = {TalonPattern.JOKER: "a joker", TalonPattern.ROCKET: "both jokers",
                TalonPattern.PAIR: "a pair", TalonPattern.TRIO: "a trio",
                TalonPattern.STRAIGHT: "a straight"}


def _talon_words(t: TalonFactor) -> str:
    if t.rank is None:
        return _TALON_WORDS[t.pattern]
    sym = rank_symbol(t.rank)
    return f"the joker {sym}" if t.pattern is TalonPattern.JOKER else \
        f"{_TALON_WORDS[t.pattern]} of {sym}s"


def _scoring_words(rules: Rules) -> tuple[str, ...]:
    s = rules.scoring
    base = "the winning bid" if s.base == "bid" else str(s.base)
    out = [f"The base is {base}; the multiplier starts at 1."]
    wild = rules.wild
    if wild is not None:  # a bomb's class factor replaces the shape's (game.scoring.wild_factor)
        classes = ", ".join(f"{c.value} x{wild.factor(c)}" for c in BombClass)
        out.append(f"Each {wild.bomb.replace('_', ' ')} played multiplies the multiplier by "
                   f"its class's factor: {classes}.")
    for d in s.double:
        if wild is not None and d == wild.bomb:
            continue
        what = _EVENT_WORDS.get(d, f"each {d.replace('_', ' ')} played")
        times = s.factor(d)
        verb = "doubles the multiplier" if times == 2 else f"multiplies the multiplier by {times}"
        out.append(f"{what[0].upper()}{what[1:]} {verb}.")
    if s.talon:
        items = "; ".join(f"{_talon_words(t)} x{t.times}" for t in s.talon)
        out.append(f"The talon multiplies the stake by its pattern, the highest that applies: "
                   f"{items}.")
    if s.cap_bombs is not None:
        out.append(f"At most {s.cap_bombs} bombs or rockets multiply; later ones do not.")
    own = _own_factor_words(rules)
    if s.cap_multiplier is not None:
        out.append(f"The multiplier is capped at {s.cap_multiplier}." if not own else
                   f"The multiplier each peasant settles at (its own factors included) is "
                   f"capped at {s.cap_multiplier}.")
    if rules.deal.players == 2:
        out.append("The winner wins base x multiplier points; the loser loses as many.")
    elif own:
        out.append(f"Each peasant settles base x multiplier with the landlord, times its own "
                   f"factors ({own} only that peasant's settlement with the landlord, not "
                   f"another peasant's): the landlord wins or loses the sum of its "
                   f"{_NUMBER_WORDS.get(rules.deal.players - 1, rules.deal.players - 1)} "
                   "settlements, each peasant its own.")
    else:
        out.append("Each peasant settles base x multiplier with the landlord: the landlord "
                   f"wins or loses {rules.deal.players - 1} times that, each peasant once.")
    return tuple(out)


_NUMBER_WORDS = {2: "two", 3: "three", 4: "four"}


def _own_factor_words(rules: Rules) -> str:
    """What multiplies one peasant's settlement only, in words (``a peasant's own double or
    super multiplies``; ``a peasant's own kick, and the landlord's counter to it,
    multiply``), or "" when every factor is the whole table's."""
    mine = [c.name for r in rules.rounds if r.scope is Scope.PAIR
            for c in r.choices if c.times > 1]
    theirs = [c.name for r in rules.rounds if r.answers and r.answer_scope is Scope.DOUBLERS
              for c in r.answers if c.times > 1]
    if not mine and not theirs:
        return ""
    words = f"a peasant's own {' or '.join(dict.fromkeys(mine))}" if mine else ""
    if theirs:
        answer = f"the landlord's {' or '.join(dict.fromkeys(theirs))}"
        return (f"{words}, and {answer} to it, multiply" if words else
                f"{answer} to a peasant's factor multiplies")
    return f"{words} multiplies"


# --------------------------------------------------------------------------- restrictions

def _restriction_overviews(rules: Rules, notation: str) -> tuple[RestrictionOverview, ...]:
    """One pass over every candidate reading with every restriction lifted (the readings
    :func:`ddzspec.readings.candidates` finds for each multiset): per restriction, the count
    of candidates that break it, of those only it breaks, and the smallest few examples."""
    if not rules.restrictions:
        return ()
    relaxed = rules.with_restrictions(())
    names = [r.name for r in rules.restrictions]
    count = dict.fromkeys(names, 0)
    alone = dict.fromkeys(names, 0)
    pool: dict[str, list[tuple[bool, Reading, tuple[str, ...]]]] = {n: [] for n in names}
    per_shape: dict[tuple[str, str, bool], int] = {}
    for si, shape in enumerate(rules.shapes):
        for start, run in shape_bodies(relaxed, si):
            body = shape.seq[start:start + run]
            base = [0] * N_RANKS
            for i in body:
                base[i] = shape.copies
            for _, kick in body_kickers(relaxed, si, start, run):
                counts = [b + c for b, c in zip(base, kick)]
                bad = tuple(r.name for r in rules.restrictions
                            if not holds(r, rules, shape, counts, body, kick))
                for n in bad:
                    count[n] += 1
                    only = len(bad) == 1
                    alone[n] += only
                    key = (n, shape.name, only)
                    if per_shape.get(key, 0) < 2:
                        per_shape[key] = per_shape.get(key, 0) + 1
                        pool[n].append((only, make_reading(rules, shape, counts, start, run),
                                        bad))
    out = []
    for r in rules.restrictions:
        cands = sorted(pool[r.name], key=lambda x: (not x[0], _order_key(x[1].cards, rules)))
        chosen: list[RuledOut] = []
        shapes: set[str] = set()
        for first_pass in (True, False):  # one per shape first
            for _, rd, bad in cands:
                if len(chosen) == RULED_OUT_EXAMPLES:
                    break
                text = rd.describe(notation)
                if (first_pass and rd.shape in shapes) or any(x.reading == text
                                                              for x in chosen):
                    continue
                shapes.add(rd.shape)
                got = solve_readings(rd.cards.counts, rules)
                verdict = ("illegal" if not got else got[0].describe(notation) if len(got) == 1
                           else "ambiguous")
                chosen.append(RuledOut(text, rd.cards.format(notation), verdict,
                                       tuple(x for x in bad if x != r.name)))
        chosen.sort(key=lambda x: (bool(x.also), _order_key(Cards.parse(x.cards, notation),
                                                            rules)))
        out.append(RestrictionOverview(r.name, words(r), count[r.name], alone[r.name],
                                       tuple(chosen)))
    return tuple(out)


@lru_cache(maxsize=16)
def _overview(rules: Rules, notation: str) -> RulesOverview:
    shapes = tuple(
        ShapeOverview(s.name, shape_words(s, rules), s.describe(),
                      tuple(s.size(r) for r in range(s.run_min, s.run_max + 1)
                            if s.size(r) <= rules.max_cards),
                      s.tier, _shape_examples(rules, i, notation))
        for i, s in enumerate(rules.shapes))
    return RulesOverview(rules.name, rules.title, resolved_text(rules), shapes,
                         _restriction_overviews(rules, notation), _deal_words(rules),
                         _bidding_words(rules), _play_words(rules), _scoring_words(rules))


def rules_overview(rules: Rules, notation: str = "en") -> RulesOverview:
    """A rules file in words (the Learn tab, ``rules overview``): every shape with real example
    moves, every restriction with the readings it rules out (counted over every candidate reading
    with the restrictions lifted), the deal, bidding, play and scoring in sentences. Cards in
    ``notation``. Cached per rules and notation (the restriction pass reads every candidate: about
    1.5 s for classic). Raises nothing for loaded rules."""
    return _overview(rules, notation)


# --------------------------------------------------------------------------- diff

def _spec_sentence(what: str, a: Rules, b: Rules, x: str, y: str) -> str:
    """One section that differs, as a sentence."""
    if what == "restrictions":
        ra = {r.name: r for r in a.restrictions}
        rb = {r.name: r for r in b.restrictions}
        parts = []
        for name, r in rb.items():
            if str(r) not in {str(q) for q in a.restrictions}:
                verb = "changes it to" if name in ra else "adds"
                parts.append(f"{b.name} {verb} {r} ({words(r)})")
        for name, r in ra.items():
            if name not in rb:
                parts.append(f"{b.name} drops {name} ({words(r)})")
        return "restrictions: " + "; ".join(parts) + "."
    if what.startswith("round "):
        gone = f"{b.name} has no {what}" if y == "-" else f"{b.name} has {y}"
        return f"{what}: {a.name} has {x if x != '-' else 'none'}; {gone}."
    if what == "scoring":  # the sentences of the overview that differ, on each side
        wa, wb = _scoring_words(a), _scoring_words(b)
        sides = [f"{r.name} says: {' '.join(w for w in mine if w not in theirs)}"
                 for r, mine, theirs in ((b, wb, wa), (a, wa, wb)) if set(mine) - set(theirs)]
        return "scoring: " + " ".join(sides or [f"{b.name} has {y}."])
    if what == "bidding" and (a.bidding.system, a.bidding.rob_order) != \
            (b.bidding.system, b.bidding.rob_order):
        ba, bb = (w[0].lower() + w[1:] for w in (_bidding_words(a), _bidding_words(b)))
        return f"bidding: {a.name} has {ba[:-1]}; {b.name} has {bb}"
    if x == "-":
        return f"{what}: only {b.name} has it: {y}."
    if y == "-":
        return f"{what}: only {a.name} has it: {x}."
    return f"{what}: {a.name} has {x}; {b.name} has {y}."


def diff_words(a: Rules, b: Rules, notation: str = "en") -> tuple[str, ...]:
    """The difference between two rules files in plain sentences: each section that differs
    (:func:`ddzspec.diff.spec_differences`), then how many moves are legal under one only or
    read differently, by type, each with an example and why
    (:func:`ddzspec.diff.diff_rules`, whose reasons come from
    :func:`ddzspec.diff.why_not`). Compiles (and caches) both move tables on first use."""
    from .diff import DIRECTIONS, Difference, diff_rules, spec_differences
    out = [_spec_sentence(s.what, a, b, s.a, s.b) for s in spec_differences(a, b)]
    d = diff_rules(a, b, limit=1, notation=notation)
    if d.identical:
        out.append(f"Every move reads the same under {a.name} and {b.name}.")
        return tuple(out)
    first: dict[tuple[str, str], Difference] = {}
    for x in d.differences:
        first.setdefault((x.direction, x.type), x)
    head = {"only_a": f"legal under {a.name} only", "only_b": f"legal under {b.name} only",
            "changed": f"read differently ({a.name} -> {b.name})"}
    for direction in DIRECTIONS:
        counts = d.counts[direction]
        if not counts:
            continue
        total = sum(counts.values())
        out.append(f"{total} move{'s are' if total != 1 else ' is'} {head[direction]}: "
                   + ", ".join(f"{n} {t}" for t, n in counts.items()) + ".")
        for t in counts:
            if (direction, t) not in first:
                continue
            x = first[(direction, t)]
            if direction == "changed":
                out.append(f"  For example {x.cards.format(notation)}: {x.why}.")
            else:
                reading = (x.a or x.b)[0].describe(notation)
                out.append(f"  For example {reading}: {x.why}.")
    return tuple(out)


__all__ = ["RestrictionOverview", "RuledOut", "RulesOverview", "ShapeOverview", "diff_words",
           "rules_overview", "shape_words"]
