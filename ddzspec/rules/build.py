"""Validate the merged sections of a rules file (:class:`~ddzspec.rules.merge.Raw`) and build
the frozen :class:`~ddzspec.rules.model.Rules`.

:class:`Builder` checks every section against the others (deck and deal, shapes and groups,
precedence, restrictions against the registry of :mod:`ddzspec.restrictions`, bidding, trick,
win, scoring) and turns the words of the file into the model's values. An error in a section
inherited from a parent, caused by this file, is located at this file's ``extends`` and names
the parent's line. Entry point: ``Builder(raw).build()``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from .. import restrictions as registry
from ..cards import ALL_RANKS, GUARDED_MAX, KEY_MASK, N_RANKS, Rank
from ..errors import RulesError
from ..larkerrors import did_you_mean
from .merge import Raw
from .model import (
    DOUBLE_EVENTS,
    KIND_SIZE,
    RANK_OF_SYMBOL,
    Base,
    Bidding,
    BiddingSystem,
    BombClass,
    BombKey,
    Cap,
    Choice,
    Deal,
    KickerKind,
    ReadingPolicy,
    Restriction,
    RobOrder,
    Round,
    RoundKind,
    RoundOrder,
    RoundStage,
    Rules,
    Scope,
    Scoring,
    Settle,
    Shape,
    TalonFactor,
    TalonPattern,
    Target,
    Trick,
    Turn,
    Wild,
    WildDraw,
    WildRestriction,
    WildRestrictionKind,
    Win,
    _digest,
    around,
    kicker_kind,
    rank_symbol,
)
from .parse import At, RankAt, RestrictionDecl, Section, SeqItem, ShapeDecl, TalonItem, Word

#: The words a bidding clause is written with, where its key is not them.
_CLAUSE_WORDS = {"all_pass_first_bidder": "all_pass", "no_call_first_speaker_landlord":
                 "no_call", "first_to_show_speaks_first": "first_to_show"}

class Builder:
    """Validate the merged sections of a file against each other and build :class:`Rules`."""

    def __init__(self, raw: Raw) -> None:
        self.raw = raw
        self.cur = raw.path

    def at(self, path: str) -> None:
        """Errors from now on are located in ``path`` (the file a section comes from)."""
        self.cur = path

    def err(self, msg: str, pos: At | None = None) -> RulesError:
        line, col = (pos.line, pos.column) if pos else (None, None)
        if self.cur != self.raw.path:
            # found in a section this file inherits: the conflict comes from this file, so
            # locate it at this file's `extends` and say where the inherited section is
            where = f"{Path(self.cur).name}:{line}:{col or 1}" if line else Path(self.cur).name
            return RulesError(f"{msg} (in the section inherited from {where}; this file "
                              "changes what it depends on)", self.raw.path, *self.raw.extends_at)
        return RulesError(msg, self.cur, line, col)

    def section(self, name: str) -> Section:
        if name not in self.raw.sections:
            self.cur = self.raw.path
            raise self.err(f"missing section {name!r}")
        sec = self.raw.sections[name]
        self.at(sec.at.path)
        return sec

    def build(self) -> Rules:
        deck, jokers = self.deck()
        order, strength = self.order(deck)
        groups = self.groups(order)
        self.sequences = tuple(g for g, decl in self.raw.groups.items() if decl.sequence)
        self.wrapping = tuple(g for g, decl in self.raw.groups.items()
                              if decl.wraps is not None)
        deal = self.deal(deck)
        self.deck_counts, self.the_deal = deck, deal
        self.jokers, self.group_ranks = jokers, groups
        max_cards = deal.hand + deal.talon
        shapes = self.shapes(groups, order, max_cards)
        shapes = self.precedence(shapes)
        restrictions = self.restrictions(groups, shapes)
        bidding = self.bidding()
        trick = self.trick()
        win = self.win()
        if "robs" in (win.landlord, win.peasant) and bidding.system is not BiddingSystem.CALL_ROB:
            sec = self.section("win")
            raise self.err("a target of 'robs' needs call_rob bidding (only robs make a "
                           "handicap)", sec.at)
        scoring = self.scoring(shapes, bidding)
        rounds = self.rounds(shapes)
        self.first_to_show(bidding, rounds)
        wild = self.wild(shapes, order, max_cards) if "wild" in self.raw.sections else None
        r = Rules(name=self.raw.name, title=self.raw.title or self.raw.name, path=self.raw.path,
                  deck=deck, jokers=jokers, order=order, strength=strength,
                  groups=tuple((k, v) for k, v in groups.items()), deal=deal, bidding=bidding,
                  shapes=shapes, restrictions=restrictions, trick=trick, win=win,
                  scoring=scoring, max_cards=max_cards, parents=tuple(self.raw.parents),
                  sequences=self.sequences, rounds=rounds, wrapping=self.wrapping,
                  wild=wild)
        return replace(r, digest=_digest(r))

    def deck(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        sec = self.section("deck")
        counts = [0] * N_RANKS
        copies = None
        ranks: list[RankAt] = []
        jokers: list[RankAt] = []
        remove: list[RankAt] = []
        for item in sec.settings:
            if item.key == "copies":
                copies = item.value
                if not 1 <= item.value <= GUARDED_MAX:
                    raise self.err(f"copies must be between 1 and {GUARDED_MAX}", item.at)
            else:
                {"ranks": ranks, "jokers": jokers, "remove": remove}[item.key].extend(item.value)
        if copies is None:
            raise self.err("deck needs 'copies N'", sec.at)
        for r in ranks:
            if counts[r.rank.index]:
                raise self.err(f"rank {r.rank.symbol()} listed twice in the deck", r.at)
            counts[r.rank.index] = copies
        for r in jokers:
            if counts[r.rank.index]:
                raise self.err(f"joker {r.rank.symbol()} listed twice in the deck", r.at)
            counts[r.rank.index] = 1
        for r in remove:
            if not counts[r.rank.index]:
                raise self.err(f"remove {r.rank.symbol()}: not in the deck", r.at)
            counts[r.rank.index] = 0
        return tuple(counts), tuple(r.rank.index for r in jokers if counts[r.rank.index])

    def order(self, deck: tuple[int, ...]) -> tuple[tuple[Rank, ...], tuple[int, ...]]:
        sec = self.section("order")
        order: list[Rank] = []
        for ra in sec.values()["ranks"]:
            r = ra.rank
            if not deck[r.index]:
                raise self.err(f"rank {r.symbol()} is used in order but is not in the deck",
                               ra.at)
            if r in order:
                raise self.err(f"rank {r.symbol()} appears twice in order", ra.at)
            order.append(r)
        missing = [ALL_RANKS[i].symbol() for i in range(N_RANKS) if deck[i] and
                   ALL_RANKS[i] not in order]
        if missing:
            raise self.err(f"order lacks deck ranks: {' '.join(missing)}", sec.at)
        strength = [-1] * N_RANKS
        for i, r in enumerate(order):
            strength[r.index] = i
        return tuple(order), tuple(strength)

    def groups(self, order: tuple[Rank, ...]) -> dict[str, tuple[int, ...]]:
        out: dict[str, tuple[int, ...]] = {}
        for gname, g in self.raw.groups.items():
            self.at(g.at.path)
            if g.sequence:
                out[gname] = self.sequence(gname, g.items, order, g.wraps)
                continue
            if g.wraps is not None:
                raise self.err(f"group {gname}: only a sequence wraps (write 'group {gname} = "
                               "sequence RANKS wraps', e.g. sequence 3 .. 2 wraps)", g.wraps)
            for ra in g.ranks:
                if ra.rank not in order:
                    raise self.err(f"group {gname}: rank {ra.rank.symbol()} is not in the deck",
                                   ra.at)
            if g.span:
                lo, hi = g.ranks[0].rank, g.ranks[1].rank
                a, b = order.index(lo), order.index(hi)
                if a > b:
                    raise self.err(f"group {gname}: {lo.symbol()} .. {hi.symbol()} runs "
                                   "backwards in the order", g.at)
                out[gname] = tuple(r.index for r in order[a:b + 1])
            else:
                self.written_in_order(f"group {gname}", g.ranks, order, gname)
                idx = sorted(order.index(ra.rank) for ra in g.ranks)
                if idx != list(range(idx[0], idx[0] + len(idx))):
                    raise self.err(f"group {gname}: ranks must be consecutive in the order",
                                   g.at)
                out[gname] = tuple(order[i].index for i in idx)
        return out

    def written_in_order(self, label: str, ranks: tuple[RankAt, ...],
                         order: tuple[Rank, ...], group: str | None = None) -> None:
        """A list of ranks (``label``: ``group chain``, ``draw laizi``) must be written low to
        high as in ``order``, each once: the loader never re-sorts a list silently (``group
        chain = A 2 3 .. K`` would become 3 .. 2, and JQKA2 a straight). For a ``group``
        (its name), the error says that a chain order apart from strength is a ``sequence``."""
        seen: dict[Rank, RankAt] = {}
        for prev, ra in zip((None, *ranks), ranks):
            if ra.rank in seen:
                first = seen[ra.rank].at
                raise self.err(f"{label}: rank {ra.rank.symbol()} is listed twice (first "
                               f"at {first.line}:{first.column})", ra.at)
            seen[ra.rank] = ra
            if prev is not None and order.index(ra.rank) < order.index(prev.rank):
                hint = "" if group is None else (
                    " (it would be re-sorted, changing which chains exist); for a chain order "
                    f"apart from strength write 'group {group} = sequence ...' (e.g. sequence "
                    "A 2 3 .. A)")
                raise self.err(
                    f"{label}: {ra.rank.symbol()} is written after {prev.rank.symbol()}, but "
                    "the order puts it below; the ranks are listed low to high as in the order"
                    + hint, ra.at)

    def sequence(self, gname: str, items: tuple[SeqItem, ...], order: tuple[Rank, ...],
                 wraps: At | None = None) -> tuple[int, ...]:
        """A declared chain order (``group NAME = sequence A 2 3 .. A``): its ranks as
        written, a span ``LO .. HI`` expanded along ``order``; every rank at most once, but
        one rank may stand at both ends (the low-straight house rule, A2345 and 10JQKA, of
        regional rooms: Shanghai's low A-2 chains, QuiQiJingFeng/M2_CLIENT's rule page
        srddz2RuleListLayer.csd). With ``wraps`` (where the word was written) the sequence is
        a circle (a house rule): every rank exactly once, at least 3. Raises RulesError,
        located."""
        out: list[tuple[Rank, At]] = []
        for item in items:
            for ra in (item if isinstance(item, tuple) else (item,)):
                if ra.rank not in order:
                    raise self.err(f"group {gname}: rank {ra.rank.symbol()} is not in the "
                                   "deck", ra.at)
            if isinstance(item, tuple):
                lo, hi = item
                a, b = order.index(lo.rank), order.index(hi.rank)
                if a > b:
                    raise self.err(f"group {gname}: {lo.rank.symbol()} .. {hi.rank.symbol()} "
                                   "runs backwards in the order", lo.at)
                out += [(r, hi.at if r is hi.rank else lo.at) for r in order[a:b + 1]]
            else:
                out.append((item.rank, item.at))
        for n, (r, at) in enumerate(out):
            earlier = [m for m in range(n) if out[m][0] is r]
            if earlier and wraps is not None:
                raise self.err(f"group {gname}: rank {r.symbol()} appears twice in a wrapping "
                               "sequence; a circle lists each rank once and goes on from its "
                               "last rank to its first by itself (sequence 3 .. 2 wraps)", at)
            if earlier and not (earlier == [0] and n == len(out) - 1):
                raise self.err(f"group {gname}: rank {r.symbol()} appears twice in the "
                               "sequence; a rank may repeat only at both ends (sequence A 2 "
                               "3 .. A)", at)
        if len({r for r, _ in out}) < 2:
            raise self.err(f"group {gname}: a sequence needs at least 2 ranks", out[0][1])
        if wraps is not None and len(out) < 3:
            raise self.err(f"group {gname}: a wrapping sequence needs at least 3 ranks (with "
                           "2, every chain of both reads the same cards from either end)",
                           wraps)
        return tuple(r.index for r, _ in out)

    def deal(self, deck: tuple[int, ...]) -> Deal:
        sec = self.section("deal")
        self.once("deal", sec)
        vals = sec.values()
        for k in ("players", "hand", "talon"):
            if k not in vals:
                raise self.err(f"deal needs '{k} N'", sec.at)
        d = Deal(players=vals["players"], hand=vals["hand"], talon=vals["talon"],
                 undealt=vals.get("undealt", 0), turn=vals.get("turn", Turn.COUNTERCLOCKWISE))
        if d.players < 2:
            raise self.err("a deal needs at least 2 players", sec.at)
        if d.hand < 1:
            raise self.err("hand must be at least 1 card", sec.at)
        total = d.players * d.hand + d.talon + d.undealt
        if total != sum(deck):
            pos = sec.at
            deck_sec = self.raw.sections["deck"]
            if deck_sec.at.path == self.raw.path != self.cur:
                self.at(deck_sec.at.path)  # the deck changed here, the deal was inherited
                pos = deck_sec.at
            raise self.err(f"hand sizes do not add up to the deck: {d.players} players x "
                           f"{d.hand} + talon {d.talon} + undealt {d.undealt} = {total}, "
                           f"but the deck has {sum(deck)} cards", pos)
        return d

    def shapes(self, groups: dict[str, tuple[int, ...]], order: tuple[Rank, ...],
               max_cards: int) -> tuple[Shape, ...]:
        if not self.raw.shapes:
            self.cur = self.raw.path
            raise self.err("no shapes declared")
        return tuple(self.shape(d, groups, tuple(r.index for r in order), max_cards)
                     for d in self.raw.shapes.values())

    def shape(self, d: ShapeDecl, groups: dict[str, tuple[int, ...]],
              all_ranks: tuple[int, ...], max_cards: int) -> Shape:
        self.at(d.at.path)
        sname, lo, hi, copies = d.name, d.run_lo, d.run_hi, d.copies
        gname = d.group.text if d.group else None
        if d.group is not None and d.group.text not in groups:
            raise self.err(f"shape {sname}: unknown group {d.group.text!r} (groups: "
                           f"{', '.join(groups) or 'none'}){did_you_mean(d.group.text, groups)}",
                           d.group.at)
        seq = groups[gname] if gname else all_ranks
        wraps = gname in self.wrapping
        if wraps:  # the circle, then its ranks again but the last: every chain is a slice
            seq = around(seq)
        if copies < 1:
            raise self.err(f"shape {sname}: copies must be at least 1", d.at)
        if lo < 1:
            raise self.err(f"shape {sname}: a run is at least 1 rank long", d.run_at)
        if hi is not None and lo > hi:
            raise self.err(f"shape {sname}: impossible run bounds {lo}..{hi} (min > max)",
                           d.run_at)
        if (hi or lo) > 1 and gname is None:
            raise self.err(f"shape {sname}: a run longer than 1 rank needs 'in GROUP' "
                           "(the ranks that may form chains)", d.at)
        chain_order = gname in self.sequences
        if wraps:
            # a run of every rank of the circle reads the same cards from each start
            longest = (len(seq) + 1) // 2 - 1
            if lo > longest or (hi is not None and hi > longest):
                n, run = longest + 1, max(lo, hi or 0)
                why = (f"a run of {n} would read the same cards from every start"
                       + ("" if run == n else " and a longer one cannot be made"))
                raise self.err(f"shape {sname}: runs up to {run} in wrapping sequence {gname}, "
                               f"a circle of {n} ranks: {why}; the longest run is {longest}",
                               d.run_at)
            seq_len = longest
        elif chain_order and seq[0] == seq[-1]:
            # the rank at both ends: a run of 1 or of every rank reads one multiset twice
            longest = len(seq) - 2
            if lo < 2:
                raise self.err(f"shape {sname}: a run of 1 in sequence {gname} could be "
                               f"either {rank_symbol(seq[0])} (at both ends): write 2.. or "
                               "more", d.run_at)
            if lo > longest or (hi is not None and hi > longest):
                raise self.err(f"shape {sname}: a run of {max(lo, hi or 0)} in sequence "
                               f"{gname} would read the same cards twice (both ends are "
                               f"{rank_symbol(seq[0])}); the longest run is {longest}",
                               d.run_at)
            seq_len = longest
        else:
            seq_len = len(seq)
        if lo > seq_len:
            raise self.err(f"shape {sname}: a run of {lo} is longer than group "
                           f"{gname} ({len(seq)} ranks)", d.run_at)
        if hi is not None and hi > len(seq):
            raise self.err(f"shape {sname}: run bound {hi} is longer than group "
                           f"{gname} ({len(seq)} ranks)", d.run_at)
        kind: KickerKind | None = None
        count, each = 0, False
        if d.kicker_kind is not None:
            kind = kicker_kind(d.kicker_kind.text)
            if kind is None:
                raise self.err(f"shape {sname}: unknown kicker kind {d.kicker_kind.text!r} "
                               f"(kinds: {', '.join(KIND_SIZE)})"
                               f"{did_you_mean(d.kicker_kind.text, KIND_SIZE)}",
                               d.kicker_kind.at)
            if d.kicker_count is None:
                each = True
            else:
                count = d.kicker_count
                if count < 1:
                    raise self.err(f"shape {sname}: kicker count must be at least 1", d.at)
        most_units = (hi if hi is not None else seq_len) if each else count
        if d.consecutive is not None and (kind is None or most_units < 2):
            raise self.err(f"shape {sname}: 'consecutive' needs two kicker units or more "
                           "(+ each pair consecutive, + 2 pair consecutive)", d.consecutive.at)
        shape = Shape(sname, copies, lo, hi if hi is not None else seq_len, gname, seq,
                      kind, count, each, chain_order=chain_order, wraps=wraps,
                      kickers_consecutive=d.consecutive is not None, last_play=d.last_play)
        # an open run (MIN..) stops at the largest hand (a move never has more cards than a
        # hand); a bound written out must be playable: cutting it silently would hide a mistake
        top = shape.run_max
        while top >= lo and shape.size(top) > max_cards:
            top -= 1
        if top < lo:
            raise self.err(f"shape {sname}: even the shortest run needs {shape.size(lo)} "
                           f"cards, more than the largest hand ({max_cards})", d.at)
        if hi is not None and top < hi:
            raise self.err(f"shape {sname}: a run of {hi} needs {shape.size(hi)} cards, more "
                           f"than the largest hand ({max_cards}); the longest playable run is "
                           f"{top} (write {lo}..{top}, or {lo}.. for 'as long as a hand "
                           "allows')", d.run_at)
        most = max((self.deck_counts[i] for i in seq), default=0)
        if copies > most:
            raise self.err(f"shape {sname}: can never be formed: its body needs {copies} "
                           f"cards of a rank, but the deck holds at most {most} of any "
                           f"rank in {gname or 'the order'}", d.at)
        fit = [i for i in range(len(seq) - lo + 1)
               if all(self.deck_counts[j] >= copies for j in seq[i:i + lo])]
        if not fit:
            raise self.err(f"shape {sname}: can never be formed: no run of {lo} ranks of "
                           f"{gname or 'the order'} has {copies} cards of each rank", d.at)
        return replace(shape, run_max=top)

    def kept(self, what: str, w: Word) -> bool:
        """Whether the shape name ``w`` of a ``precedence`` or ``double`` clause stays: False
        for a shape dropped by ``without`` in a parent file or by ``--without`` (the clause
        loses the name); an error for one dropped by the clause's own file (a contradiction)."""
        gone = self.raw.dropped.get(w.text)
        if gone is None:
            return True
        if gone.path == w.at.path:
            raise self.err(f"{what} {w.text}: this file drops {w.text} (without at "
                           f"{gone.line}:{gone.column})", w.at)
        return False

    def precedence(self, shapes: tuple[Shape, ...]) -> tuple[Shape, ...]:
        if "precedence" not in self.raw.sections:
            return shapes
        names: tuple[Word, ...] = self.section("precedence").values()["names"]
        listed: list[str] = []
        for w in names:
            if w.text in listed:
                raise self.err(f"precedence: {w.text} is listed twice", w.at)
            if not self.kept("precedence", w):
                continue
            if w.text not in {s.name for s in shapes}:
                raise self.err(f"precedence: no shape named {w.text!r}", w.at)
            listed.append(w.text)
        tiers = {n: len(listed) - i for i, n in enumerate(listed)}
        return tuple(replace(s, tier=tiers.get(s.name, 0)) for s in shapes)

    def restrictions(self, groups: dict[str, tuple[int, ...]],
                     shapes: tuple[Shape, ...]) -> tuple[Restriction, ...]:
        out = []
        for rname, d in self.raw.restrictions.items():
            self.at(d.at.path)
            if d.on:
                r = self.restriction(d, registry.REGISTRY[rname].param, groups)
                if d.shapes:
                    bound = self.bound_shapes(d, r, shapes)
                    if not bound:
                        continue  # every shape it bound was dropped: it binds nothing
                    r = replace(r, shapes=bound)
                out.append(r)
        return tuple(out)

    def bound_shapes(self, d: RestrictionDecl, r: Restriction,
                     shapes: tuple[Shape, ...]) -> tuple[str, ...]:
        """The shapes of a restriction's ``for`` clause (a house rule per shape: "plane wings
        never 2s or jokers" while a trio may still carry a 2): each a shape of the rules,
        once, that the restriction can bar a move of (``kicker_not_in 2 for bomb`` would
        bind nothing: :func:`ddzspec.restrictions.idle_for`); a shape dropped by ``without``
        leaves the list."""
        by_name = {s.name: s for s in shapes}
        out: list[str] = []
        for w in d.shapes:
            if w.text in out:
                raise self.err(f"restriction {d.name}: for {w.text}: listed twice", w.at)
            if not self.kept(f"restriction {d.name} for", w):
                continue
            if w.text not in by_name:
                raise self.err(f"restriction {d.name}: for {w.text}: no such shape (shapes: "
                               f"{', '.join(sorted(by_name))})", w.at)
            why = registry.idle_for(r, by_name[w.text], self.deck_counts, self.jokers)
            if why is not None:
                raise self.err(f"restriction {d.name}: for {w.text}: {why}; the restriction "
                               "could never bar one of its moves", w.at)
            out.append(w.text)
        return tuple(out)

    def restriction(self, d: RestrictionDecl, need: registry.Param,
                    groups: dict[str, tuple[int, ...]]) -> Restriction:
        """One switched-on restriction, its parameter checked against its registry entry."""
        rname, pos = d.name, d.at
        if need is registry.Param.COUNT:
            if not d.numbers:
                raise self.err(f"restriction {rname} needs a number ({rname} N)", pos)
            if len(d.numbers) > 1 or d.ranks or d.groups:
                raise self.err(f"restriction {rname} takes one number ({rname} N)", pos)
            param = int(d.numbers[0].text)
            most = max(self.deck_counts)
            if param > most:
                raise self.err(f"restriction {rname} {param}: N is at most {most} (no rank has "
                               f"more than {most} cards; a larger N bars nothing)", pos)
            if param < 1:
                raise self.err(f"restriction {rname} {param}: N must be at least 1 (to allow "
                               "no kicker at all, drop the shapes that carry kickers)", pos)
            return Restriction(rname, param)
        if need is registry.Param.NONE:
            if d.numbers:
                raise self.err(f"restriction {rname} takes no number", pos)
            if d.ranks or d.groups:
                raise self.err(f"restriction {rname} takes no ranks", pos)
            return Restriction(rname)
        ranks: set[int] = set()
        for w in d.numbers:  # digits lex as numbers: 2, 3 … 10 are ranks here
            if w.text not in RANK_OF_SYMBOL:
                raise self.err(f"restriction {rname}: {w.text} is not a rank (ranks: 3-9, 10, "
                               "J, Q, K, A, 2, B, R)", w.at)
            ranks.add(RANK_OF_SYMBOL[w.text].index)
        ranks.update(ra.rank.index for ra in d.ranks)
        for g in d.groups:
            if g.text not in groups:
                raise self.err(f"restriction {rname}: unknown group {g.text!r} (groups: "
                               f"{', '.join(groups) or 'none'})", g.at)
            ranks.update(groups[g.text])
        if not ranks:
            raise self.err(f"restriction {rname} needs ranks or a group ({rname} 2 B R, "
                           f"{rname} group jokers)", pos)
        missing = [ALL_RANKS[i].symbol() for i in sorted(ranks) if not self.deck_counts[i]]
        if missing:
            raise self.err(f"restriction {rname}: {' '.join(missing)} not in the deck", pos)
        return Restriction(rname, ranks=tuple(sorted(ranks)))

    def bidding(self) -> Bidding:
        sec = self.section("bidding")
        self.once("bidding", sec)
        b = Bidding(system=BiddingSystem(sec.head), **sec.values())
        pos = sec.at
        if b.system is BiddingSystem.AUCTION:
            if not b.bids or list(b.bids) != sorted(set(b.bids)) or b.bids[0] < 1:
                raise self.err("auction needs 'bids' as increasing positive numbers", pos)
            if b.all_pass_first_bidder is None:
                raise self.err("auction needs 'all_pass redeal first_bidder random|next'", pos)
            if b.ends_at is not None and b.ends_at not in b.bids:
                raise self.err(f"ends_at {b.ends_at} is not one of the bids "
                               f"({' '.join(map(str, b.bids))})", pos)
            if "rob_order" in sec.values():
                raise self.err("rob_order is a call_rob clause (an auction has no robs)",
                               self._clause(sec, "rob_order"))
        elif b.rob_order is RobOrder.EACH_ONCE_CALLER_LAST:
            if "max_robs" in sec.values():
                raise self.err("max_robs: rob_order each_once_caller_last bounds the robs "
                               "itself (each other seat once, then the caller once)",
                               self._clause(sec, "max_robs"))
            if self.the_deal.players < 3:
                raise self.err(f"rob_order each_once_caller_last needs three seats or more: "
                               f"with {self.the_deal.players} the robs alternate (take_turns "
                               "with max_robs, seed 003)", self._clause(sec, "rob_order"))
        elif b.max_robs < 1:
            raise self.err("call_rob needs 'max_robs N' (N ≥ 1)", pos)
        return b

    def once(self, name: str, sec: Section, keys: tuple[str, ...] | None = None) -> None:
        """Raise at the second of a clause written twice in the block ``sec`` (a bidding, a
        round, the deal or the trick rule; of scoring, ``keys``: the clauses that hold one
        value): read as a dict, the last would silently override the first. Two stage clauses
        (``after``/``before``) are :meth:`stage`'s error."""
        seen: set[str] = set()
        for s in sec.settings:
            if keys is not None and s.key not in keys:
                continue
            if s.key in seen and s.key not in ("after", "before"):
                word = _CLAUSE_WORDS.get(s.key, s.key)
                raise self.err(f"{name}: {word} given twice (each clause once in a block)",
                               s.at)
            seen.add(s.key)

    @staticmethod
    def _clause(sec: Section, key: str) -> At:
        """Where clause ``key`` of ``sec`` was written (the section's place if absent)."""
        return next((s.at for s in sec.settings if s.key == key), sec.at)

    def rounds(self, shapes: tuple[Shape, ...]) -> tuple[Round, ...]:
        """The ``round NAME { … }`` sections in the order a deal meets them: by stage
        (:class:`RoundStage`: before deal, after deal, after landlord, after talon), those of
        one stage in the order written (a parent's first)."""
        rounds = [self.round(self.section(k), shapes) for k in self.raw.sections
                  if k.startswith("round ")]
        stages = list(RoundStage)
        return tuple(sorted(rounds, key=lambda r: stages.index(r.stage)))

    def stage(self, name: str, sec: Section) -> RoundStage:
        """The stage of a round: one ``after`` or ``before`` clause naming a known stage."""
        vals = sec.values()
        when = [s for s in sec.settings if s.key in ("after", "before")]
        if not when:
            raise self.err(f"{name} needs 'after …' or 'before deal'", sec.at)
        if len(when) > 1:
            raise self.err(f"{name}: a second stage clause ({when[1].key} "
                           f"{when[1].value.text}; a round has one stage)", when[1].at)
        return self.stage_clause(name, when[0].key, vals[when[0].key])

    def stage_clause(self, name: str, key: str, w: Word) -> RoundStage:
        """The stage ``KEY WORD`` names (``after talon``, ``before deal``): a round's or a wild
        draw's. Raises RulesError at the word for a clause that names no stage."""
        stages = {s.clause: s for s in RoundStage}
        clause = f"{key} {w.text}"
        if clause not in stages:
            raise self.err(f"{name}: {clause}: unknown stage (stages: "
                           f"{', '.join(stages)})", w.at)
        return stages[clause]

    def round(self, sec: Section, shapes: tuple[Shape, ...]) -> Round:
        """One round: a known kind, stage, order and scope, and choices with distinct names
        and factors, each factor ≥ 1, one of them 1 (a seat may always decline)."""
        if sec.head not in set(RoundKind):
            raise self.err(f"unknown round {sec.head!r} (rounds: "
                           f"{', '.join(RoundKind)})", sec.at)
        vals = sec.values()
        name = f"round {sec.head}"
        stage = self.stage(name, sec)
        self.once(name, sec)
        for key in ("order", "choices"):
            if key not in vals:
                raise self.err(f"{name} needs '{key} …'", sec.at)
        words: tuple[Word, ...] = vals["order"]
        order = " ".join(w.text for w in words)
        if order not in set(RoundOrder):
            raise self.err(f"{name}: impossible order {order!r} (orders: "
                           f"{', '.join(RoundOrder)})", words[0].at)
        when = vals["after" if "after" in vals else "before"].at
        if sec.head == RoundKind.BLIND and (stage is not RoundStage.LANDLORD
                                            or order != RoundOrder.LANDLORD):
            raise self.err(f"{name}: the blind landlord takes the landlord without seeing the "
                           "talon: 'after landlord' and 'order landlord' (the talon is still "
                           "face down then)", when if stage is not RoundStage.LANDLORD
                           else words[0].at)
        if stage.before_bidding and order != RoundOrder.ALL:
            raise self.err(f"{name}: impossible order {order!r} {stage.clause} (there is no "
                           "landlord yet: order all)", words[0].at)
        scope = self.scope(f"{name}: scope", vals.get("scope"), (Scope.TABLE, Scope.PAIR))
        if scope is Scope.PAIR and sec.head == RoundKind.SHOW:
            raise self.err(f"{name}: scope pair: a hand is shown to the whole table "
                           "(scope table)", vals["scope"].at)
        if scope is Scope.PAIR and stage.before_bidding:
            raise self.err(f"{name}: scope pair {stage.clause}: there is no landlord yet, so "
                           "no seat's own settlement with it (scope table, or the round "
                           "after landlord or after talon)", vals["scope"].at)
        taken = {s.name for s in shapes} | set(DOUBLE_EVENTS)
        choices = self.choices(name, vals["choices"], taken)
        answers: tuple[Choice, ...] = ()
        reach = Scope.TABLE
        if "answer" in vals:
            if order != RoundOrder.PEASANTS_LANDLORD_IF_DOUBLED:
                raise self.err(f"{name}: 'answer' needs order peasants landlord_if_doubled "
                               "(the landlord answers only there)", self._clause(sec, "answer"))
            pairs, reach_word = vals["answer"]
            answers = self.choices(name, pairs, taken)
            reach = self.scope(f"{name}: answer … for", reach_word,
                               (Scope.TABLE, Scope.DOUBLERS))
        return Round(RoundKind(sec.head), stage, RoundOrder(order), choices, answers, scope,
                     reach)

    def scope(self, what: str, w: Word | None, known: tuple[Scope, ...]) -> Scope:
        """The scope word ``w`` (``table`` when absent), one of ``known``."""
        if w is None:
            return Scope.TABLE
        if w.text not in known:
            raise self.err(f"{what} {w.text}: unknown (scopes: "
                           f"{', '.join(known)})", w.at)
        return Scope(w.text)

    def first_to_show(self, bidding: Bidding, rounds: tuple[Round, ...]) -> None:
        """``first_to_show speaks_first`` needs a show round before the bidding (else no seat
        can have shown when the bidding starts)."""
        if bidding.first_to_show_speaks_first and not any(
                r.kind is RoundKind.SHOW and r.stage.before_bidding for r in rounds):
            sec = self.section("bidding")
            raise self.err("first_to_show speaks_first: no show round before the bidding "
                           "(round show { before deal … } or { after deal … })",
                           self._clause(sec, "first_to_show_speaks_first"))

    def choices(self, name: str, pairs: tuple[tuple[Word, Word], ...],
                taken: set[str]) -> tuple[Choice, ...]:
        out: list[Choice] = []
        for word, number in pairs:
            times = int(number.text)
            if times < 1:
                raise self.err(f"{name}: choice {word.text} {times}: a factor is at least 1 "
                               "(1: no change)", number.at)
            if word.text in taken:
                raise self.err(f"{name}: choice {word.text}: already a shape or an event "
                               "(the factor's name in a result)", word.at)
            if any(c.name == word.text for c in out):
                raise self.err(f"{name}: choice {word.text} listed twice", word.at)
            if any(c.times == times for c in out):
                raise self.err(f"{name}: two choices of factor {times}", number.at)
            out.append(Choice(word.text, times))
        if not any(c.times == 1 for c in out):
            raise self.err(f"{name}: no choice of factor 1 (a seat may always decline: "
                           "no 1)", pairs[0][0].at)
        return tuple(out)

    def wild(self, shapes: tuple[Shape, ...], order: tuple[Rank, ...], max_cards: int) -> Wild:
        """The ``wild`` section (wild cards, laizi), each clause checked (:class:`_WildBuilder`)."""
        return _build_wild(self, shapes, order, max_cards)

    def trick(self) -> Trick:
        sec = self.section("trick")
        self.once("trick", sec)
        vals = sec.values()
        close, may = vals.get("close_after"), vals.get("leader_may_pass", False)
        if close is None or close < 1:
            raise self.err("trick needs 'close_after N passes' (N ≥ 1)", sec.at)
        players = self.the_deal.players
        if close != players - 1:
            raise self.err(f"close_after {close} passes: with {players} players a trick closes "
                           f"when the {players - 1} other(s) have passed in a row (close_after "
                           f"{players - 1} passes; seeds 000/002)", sec.at)
        if may:
            raise self.err("leader_may_pass yes: the deal could never end (the leader must "
                           "play; seeds 000/002)", sec.at)
        return Trick(close, may)

    def win(self) -> Win:
        sec = self.section("win")
        t: dict[str, Target] = {}
        for item in sec.settings:
            role, target = item.key, item.value
            if role in t:
                raise self.err(f"target {role} given twice", item.at)
            t[role] = target
            hand = self.the_deal.hand + (self.the_deal.talon if role == "landlord" else 0)
            if isinstance(target, int) and target >= hand:
                raise self.err(f"target {role} {target}: a {role} holds {hand} cards, so the "
                               "deal would be won before it starts", item.at)
        return Win(t.get("landlord", 0), t.get("peasant", 0))

    def scoring(self, shapes: tuple[Shape, ...], bidding: Bidding) -> Scoring:
        sec = self.section("scoring")
        self.once("scoring", sec, ("base", "settle"))
        base: Base = 1
        double: list[str] = []
        times: list[tuple[str, int]] = []
        caps: dict[Cap, int] = {}
        talon: list[TalonFactor] = []
        settle = Settle.PER_PEASANT
        names = {s.name for s in shapes}
        named: set[str] = set()  # the names of double and factor, dropped shapes included

        def multiplies(w: Word, clause: str) -> bool:
            """Whether the name ``w`` of a ``double`` or ``factor`` clause stays (checked)."""
            if w.text in double or w.text in dict(times):
                raise self.err(f"{clause} {w.text}: listed twice (in double or factor)", w.at)
            named.add(w.text)
            if w.text not in DOUBLE_EVENTS and not self.kept(clause, w):
                return False
            if w.text not in names and w.text not in DOUBLE_EVENTS:
                raise self.err(f"{clause} {w.text}: neither a shape nor an event "
                               f"({', '.join(DOUBLE_EVENTS)})", w.at)
            if w.text == "rob" and bidding.system is not BiddingSystem.CALL_ROB:
                raise self.err(f"{clause} rob needs call_rob bidding", w.at)
            return True

        for item in sec.settings:
            if item.key == "base":
                base = item.value
                if isinstance(base, int) and base < 1:
                    raise self.err("base must be at least 1 (or 'bid')", item.at)
                if base == "bid" and bidding.system is not BiddingSystem.AUCTION:
                    raise self.err("base bid needs auction bidding", item.at)
            elif item.key == "double":
                double += [w.text for w in item.value if multiplies(w, "double")]
            elif item.key == "factor":
                for w, n in item.value:
                    if int(n.text) < 2:
                        raise self.err(f"factor {w.text} {n.text}: a factor is at least 2 (to "
                                       f"leave {w.text} without a factor, do not list it)",
                                       n.at)
                    if multiplies(w, "factor"):
                        times.append((w.text, int(n.text)))
            elif item.key == "cap":
                self.cap(item.value, caps, item.at)
            elif item.key == "talon":
                if talon:
                    raise self.err("talon given twice (list every pattern in one clause)",
                                   item.at)
                for t in item.value:
                    talon.append(self.talon_factor(t, talon))
            else:
                settle = item.value
        if Cap.BOMBS in caps and not named - set(DOUBLE_EVENTS):  # as written: drops aside
            raise self.err("cap bombs: no shape multiplies (list bomb or rocket in double or "
                           "factor)", sec.at)
        every = tuple(double + [n for n, _ in times])
        # with every multiplying shape dropped (without), the bombs cap bounds nothing: it goes
        # too, so the resolved text loads back
        bombs = caps.get(Cap.BOMBS) if names & set(every) else None
        return Scoring(base, every, settle, tuple(times), caps.get(Cap.MULTIPLIER), bombs,
                       tuple(talon))

    def cap(self, value: tuple[Word, Word], caps: dict[Cap, int], pos: At) -> None:
        """One ``cap WHAT N`` clause into ``caps`` (checked: a known WHAT, once, N ≥ 1)."""
        what, n = value
        kinds = {c.value: c for c in Cap}
        if what.text not in kinds:
            raise self.err(f"cap {what.text}: unknown cap (caps: {', '.join(kinds)})", what.at)
        kind = kinds[what.text]
        if kind in caps:
            raise self.err(f"cap {what.text}: given twice", pos)
        if int(n.text) < 1:
            raise self.err(f"cap {what.text} {n.text}: a cap is at least 1", n.at)
        caps[kind] = int(n.text)

    def talon_factor(self, t: TalonItem, seen: list[TalonFactor]) -> TalonFactor:
        """One talon pattern (checked against the deck, the deal and group ``chain``)."""
        kinds = {p.value: p for p in TalonPattern}
        word = t.pattern.text
        if word not in kinds:
            why = (" (cards have no suits here, so a flush cannot be stated)"
                   if word == "flush" else "")
            raise self.err(f"talon {word}: unknown pattern (patterns: {', '.join(kinds)})"
                           f"{why}", t.pattern.at)
        pattern = kinds[word]
        times = int(t.times.text)
        if times < 2:
            raise self.err(f"talon {word}: a factor is at least 2", t.times.at)
        size = self.the_deal.talon
        jokers = [i for i in self.jokers if self.deck_counts[i]]
        need = {TalonPattern.JOKER: 1, TalonPattern.ROCKET: len(jokers), TalonPattern.PAIR: 2,
                TalonPattern.TRIO: 3, TalonPattern.STRAIGHT: 2}[pattern]
        if size < need:
            raise self.err(f"talon {word}: needs a talon of at least {need} cards (the deal's "
                           f"talon has {size})", t.pattern.at)
        rank = None if t.rank is None else t.rank.rank.index
        if t.rank is not None:
            sym = t.rank.rank.symbol()
            if pattern in (TalonPattern.ROCKET, TalonPattern.STRAIGHT):
                raise self.err(f"talon {word}: takes no rank ('of {sym}')", t.rank.at)
            if pattern is TalonPattern.JOKER and rank not in jokers:
                raise self.err(f"talon joker of {sym}: {sym} is not a joker of the deck",
                               t.rank.at)
            if self.deck_counts[t.rank.rank.index] < need:
                raise self.err(f"talon {word} of {sym}: the deck holds "
                               f"{self.deck_counts[t.rank.rank.index]} {sym}", t.rank.at)
        if pattern in (TalonPattern.JOKER, TalonPattern.ROCKET) and not jokers:
            raise self.err(f"talon {word}: the deck has no jokers", t.pattern.at)
        if pattern is TalonPattern.STRAIGHT and "chain" not in self.group_ranks:
            raise self.err("talon straight: needs group chain (the ranks that may form "
                           "chains)", t.pattern.at)
        if any(f.pattern is pattern and f.rank == rank for f in seen):
            raise self.err(f"talon {word}: listed twice", t.pattern.at)
        return TalonFactor(pattern, times, rank)


class _WildBuilder:
    """The ``wild`` section's checks (one method per clause), for :meth:`Builder.wild`."""

    def __init__(self, b: Builder, sec: Section, shapes: tuple[Shape, ...],
                 order: tuple[Rank, ...]) -> None:
        self.b, self.sec, self.shapes, self.order = b, sec, shapes, order
        self.by_name = {s.name: s for s in shapes}

    def count(self) -> int:
        w: Word | None = self.sec.values().get("count")
        if w is None:
            raise self.b.err("wild needs 'count N' (how many wild ranks a deal draws)",
                             self.sec.at)
        n = int(w.text)
        if n < 1:
            raise self.b.err(f"wild count {n}: at least 1 (a file without wild cards has no "
                             "wild section)", w.at)
        return n

    def draws(self, count: int) -> tuple[WildDraw, ...]:
        """The ``draw`` clauses: exactly ``count`` of them, distinct names, a known stage,
        ranks of the deck and never a joker."""
        out: list[WildDraw] = []
        for item in self.sec.settings:
            if item.key != "draw":
                continue
            name, moment, stage, ranks = item.value
            if len(out) == count:
                raise self.b.err(f"draw {name.text}: a wild rank more than 'count {count}' "
                                 f"declares (this file draws {count} wild rank"
                                 f"{'s' if count > 1 else ''})", name.at)
            if any(d.name == name.text for d in out):
                raise self.b.err(f"draw {name.text}: drawn twice", name.at)
            at = self.b.stage_clause(f"draw {name.text}", moment, stage)
            picked = self.ranks(name.text, ranks)
            if len(picked) <= len(out):
                raise self.b.err(f"draw {name.text}: {len(picked)} rank"
                                 f"{'s' if len(picked) > 1 else ''} to draw from, but a draw "
                                 f"never repeats an earlier draw's rank and {len(out)} come "
                                 "before it (list more ranks)", name.at)
            out.append(WildDraw(name.text, at, picked))
        if len(out) < count:
            w: Word | None = self.sec.values().get("count")
            raise self.b.err(f"wild count {count}: {len(out)} draw clause"
                             f"{'s' if len(out) != 1 else ''} (one 'draw NAME after STAGE' "
                             "per wild rank)", self.sec.at if w is None else w.at)
        return tuple(out)

    def ranks(self, name: str, written: tuple[bool, tuple[RankAt, ...]] | None) -> tuple[int, ...]:
        """The ranks a draw picks from (none written: every non-joker rank of the order)."""
        jokers = set(self.b.jokers)
        if written is None:
            return tuple(r.index for r in self.order if r.index not in jokers)
        span, ras = written
        for ra in ras:
            if ra.rank not in self.order:
                raise self.b.err(f"draw {name}: rank {ra.rank.symbol()} is not in the deck",
                                 ra.at)
            if ra.rank.index in jokers:
                raise self.b.err(f"draw {name}: {ra.rank.symbol()} is a joker, and a joker is "
                                 "never wild (a wild card stands for a non-joker rank)", ra.at)
        if span:
            lo, hi = ras
            a, b = self.order.index(lo.rank), self.order.index(hi.rank)
            if a > b:
                raise self.b.err(f"draw {name}: {lo.rank.symbol()} .. {hi.rank.symbol()} runs "
                                 "backwards in the order", lo.at)
            for r in self.order[a:b + 1]:
                if r.index in jokers:
                    raise self.b.err(f"draw {name}: {lo.rank.symbol()} .. {hi.rank.symbol()} "
                                     f"holds the joker {r.symbol()}, and a joker is never wild",
                                     hi.at)
            return tuple(r.index for r in self.order[a:b + 1])
        self.b.written_in_order(f"draw {name}", ras, self.order)
        return tuple(ra.rank.index for ra in ras)

    def bomb(self) -> Shape:
        value: tuple[Word, tuple[Word, ...] | None] | None = self.sec.values().get("bomb")
        w = None if value is None else value[0]
        if w is None:
            raise self.b.err("wild needs 'bomb SHAPE' (the shape whose readings get a class)",
                             self.sec.at)
        shape = self.by_name.get(w.text)
        gone = self.b.raw.dropped.get(w.text)
        if shape is None and gone is not None:
            where = "" if gone.line is None else f" at {gone.line}:{gone.column}"
            raise self.b.err(f"wild bomb {w.text}: {w.text} is dropped (without{where}), but "
                             "the wild section's bomb classes (soft, hard, pure) are readings "
                             f"of it: keep {w.text}, or give a wild section naming another bomb",
                             w.at)
        if shape is None:
            raise self.b.err(f"wild bomb {w.text}: no such shape", w.at)
        if not shape.tier or shape.kicker_kind is not None or shape.run_min != 1 \
                or shape.run_max != 1:
            raise self.b.err(f"wild bomb {w.text}: a bomb is a shape of one rank, without "
                             "kickers, above others in the precedence", w.at)
        return shape

    def lengths(self, bomb: Shape, draws: tuple[WildDraw, ...], max_cards: int) \
            -> tuple[int, ...]:
        """``bomb SHAPE LO .. HI``: the bomb's lengths (none written: the shape's size only,
        returned as ``()``). LO is the shape's size; HI at most what one rank's copies plus
        every wild card can make (``deck`` and the draws), a hand can hold and a move key can
        count."""
        value: tuple[Word, tuple[Word, ...] | None] = self.sec.values()["bomb"]
        words = value[1]
        if words is None:
            return ()
        lo, hi = int(words[0].text), int(words[-1].text)
        if lo != bomb.copies:
            raise self.b.err(f"wild bomb {bomb.name} {lo}: the lengths start at the shape's "
                             f"size ({bomb.copies}: a {bomb.name} of {bomb.copies} cards is "
                             "the shortest)", words[0].at)
        if hi <= lo:
            raise self.b.err(f"wild bomb {bomb.name} {lo} .. {hi}: a longer bomb needs HI "
                             f"above {lo} (leave the lengths out for {lo} cards only)",
                             words[-1].at)
        deck = self.b.deck_counts
        wild_copies = sorted((deck[r] for r in {r for d in draws for r in d.ranks}),
                             reverse=True)[:len(draws)]
        natural = max(deck[r.index] for r in self.order if r.index not in set(self.b.jokers))
        most = natural + sum(wild_copies)
        for limit, why in ((most, f"one rank's {natural} copies and the {sum(wild_copies)} "
                                  "wild cards of the draws"),
                           (max_cards, "a hand with the talon"), (KEY_MASK, "a move key")):
            if hi > limit:
                raise self.b.err(f"wild bomb {bomb.name} {lo} .. {hi}: {hi} cards is more than "
                                 f"{why} can hold (at most {limit})", words[-1].at)
        return tuple(range(lo, hi + 1))

    def ladder(self, lengths: tuple[int, ...]) -> tuple[BombKey, ...]:
        """``ladder KEY > KEY …``: length (only with several lengths, then required), class and
        rank, each once: a ladder lacking one leaves bombs incomparable."""
        words: tuple[Word, ...] = self.sec.values().get("ladder", ())
        if not words:
            if lengths:
                raise self.b.err(f"wild bomb of {lengths[0]} .. {lengths[-1]} cards needs "
                                 "'ladder length > class > rank' (how bombs of several lengths "
                                 "compare)", self.b._clause(self.sec, "bomb"))
            return (BombKey.CLASS, BombKey.RANK)
        out: list[BombKey] = []
        for w in words:
            if w.text not in set(BombKey):
                raise self.b.err(f"wild ladder {w.text}: not a key (keys: "
                                 f"{', '.join(BombKey)})", w.at)
            if BombKey(w.text) in out:
                raise self.b.err(f"wild ladder: {w.text} is listed twice", w.at)
            if w.text == BombKey.LENGTH and not lengths:
                raise self.b.err("wild ladder length: every bomb of this file has one length "
                                 "(give 'bomb SHAPE LO .. HI', or leave length out)", w.at)
            out.append(BombKey(w.text))
        need = [BombKey.LENGTH, BombKey.CLASS, BombKey.RANK] if lengths else \
            [BombKey.CLASS, BombKey.RANK]
        missing = [k.value for k in need if k not in out]
        if missing:
            raise self.b.err(f"wild ladder lacks {', '.join(missing)}: two bombs differing "
                             f"only there would be incomparable", words[0].at)
        return tuple(out)

    def order_of(self, bomb: Shape) -> tuple[str, ...]:
        """``order``: every class once and every shape above the bomb, highest first, the
        shapes in their precedence order."""
        words: tuple[Word, ...] = self.sec.values().get("order", ())
        if not words:
            raise self.b.err("wild needs 'order …' (the bomb classes and the shapes above the "
                             "bomb, highest first: order rocket > pure > hard > soft)",
                             self.sec.at)
        above = [s.name for s in sorted(self.shapes, key=lambda s: -s.tier)
                 if s.tier > bomb.tier]
        seen: list[str] = []
        for w in words:
            if w.text in seen:
                raise self.b.err(f"wild order: {w.text} is listed twice", w.at)
            if w.text not in set(BombClass) and not self.b.kept("wild order", w):
                continue  # a shape dropped by ``without``: the order loses it
            if w.text not in set(BombClass) and w.text not in above:
                raise self.b.err(f"wild order: {w.text} is neither a bomb class (classes: "
                                 f"{', '.join(BombClass)}) nor a shape above {bomb.name}"
                                 f" ({', '.join(above) or 'none'})", w.at)
            seen.append(w.text)
        missing = [c for c in [*BombClass, *above] if c not in seen]
        if missing:
            raise self.b.err(f"wild order lacks {', '.join(missing)} (every class and every "
                             f"shape above {bomb.name}, placed)", words[0].at)
        if [n for n in seen if n in above] != above:
            raise self.b.err(f"wild order: {', '.join(above)} must keep the precedence's order",
                             words[0].at)
        return tuple(seen)

    def factors(self, lengths: tuple[int, ...]) \
            -> tuple[tuple[tuple[BombClass, int], ...], int]:
        """``factor CLASS N …`` (every class) and, with several lengths, ``long N`` (every bomb
        longer than the shortest): the class factors and the long factor (1 without)."""
        pairs: tuple[tuple[Word, Word], ...] = self.sec.values().get("factor", ())
        out: list[tuple[BombClass, int]] = []
        long: int | None = None
        for w, n in pairs:
            if w.text == "long":
                if not lengths:
                    raise self.b.err("wild factor long: every bomb of this file has one length "
                                     "(give 'bomb SHAPE LO .. HI')", w.at)
                if long is not None:
                    raise self.b.err("wild factor long: given twice", w.at)
                if int(n.text) < 1:
                    raise self.b.err(f"wild factor long {n.text}: a factor is at least 1",
                                     n.at)
                long = int(n.text)
                continue
            if w.text not in set(BombClass):
                raise self.b.err(f"wild factor {w.text}: not a bomb class (classes: "
                                 f"{', '.join(BombClass)})", w.at)
            if any(c == w.text for c, _ in out):
                raise self.b.err(f"wild factor {w.text}: given twice", w.at)
            if int(n.text) < 1:
                raise self.b.err(f"wild factor {w.text} {n.text}: a factor is at least 1",
                                 n.at)
            out.append((BombClass(w.text), int(n.text)))
        missing = [c.value for c in BombClass if c not in dict(out)]
        if lengths and long is None:
            missing.append("long")
        if missing:
            raise self.b.err(f"wild needs a factor for every bomb class (missing: "
                             f"{', '.join(missing)})", self.b._clause(self.sec, "factor"))
        return tuple(out), 1 if long is None else long

    def policy(self) -> ReadingPolicy:
        w: Word | None = self.sec.values().get("reading")
        if w is None:
            raise self.b.err(f"wild needs 'reading POLICY' ({', '.join(ReadingPolicy)})",
                             self.sec.at)
        if w.text not in set(ReadingPolicy):
            raise self.b.err(f"wild reading {w.text}: unknown policy (policies: "
                             f"{', '.join(ReadingPolicy)})", w.at)
        return ReadingPolicy(w.text)

    def priority(self, policy: ReadingPolicy) -> tuple[str, ...]:
        """``priority``: with ``reading strongest``, every shape once, highest first."""
        words: tuple[Word, ...] = self.sec.values().get("priority", ())
        if policy is not ReadingPolicy.STRONGEST:
            if words:
                raise self.b.err(f"wild priority: only with 'reading strongest' (this file "
                                 f"reads '{policy.value}')", words[0].at)
            return ()
        if not words:
            raise self.b.err("wild reading strongest needs 'priority SHAPE > SHAPE …' (which "
                             "type a lead takes, every shape)", self.sec.at)
        out: list[str] = []
        for w in words:
            if w.text in out:
                raise self.b.err(f"wild priority: {w.text} is listed twice", w.at)
            if not self.b.kept("wild priority", w):
                continue
            if w.text not in self.by_name:
                raise self.b.err(f"wild priority: no shape named {w.text!r}", w.at)
            out.append(w.text)
        missing = [n for n in self.by_name if n not in out]
        if missing:
            raise self.b.err(f"wild priority lacks {', '.join(missing)} (every shape, "
                             "highest first)", words[0].at)
        return tuple(out)

    def restrictions(self) -> tuple[WildRestriction, ...]:
        items: tuple[tuple[Word, Word | None], ...] = self.sec.values().get("restrict", ())
        out: list[WildRestriction] = []
        for w, n in items:
            if w.text not in set(WildRestrictionKind):
                raise self.b.err(f"wild restrict {w.text}: unknown restriction (known: "
                                 f"{', '.join(WildRestrictionKind)})", w.at)
            kind = WildRestrictionKind(w.text)
            if any(r.kind is kind for r in out):
                raise self.b.err(f"wild restrict {w.text}: given twice", w.at)
            if kind is WildRestrictionKind.BOMB_MIN_NATURAL:
                if n is None or not 1 <= int(n.text) <= 3:
                    raise self.b.err(f"wild restrict {w.text} needs N from 1 to 3 (a bomb "
                                     "with wild cards holds at least N natural cards)",
                                     (n or w).at)
                out.append(WildRestriction(kind, int(n.text)))
            else:
                if n is not None:
                    raise self.b.err(f"wild restrict {w.text} takes no number", n.at)
                out.append(WildRestriction(kind))
        return tuple(out)


def _build_wild(b: Builder, shapes: tuple[Shape, ...], order: tuple[Rank, ...],
                max_cards: int) -> Wild:
    sec = b.section("wild")
    b.once("wild", sec, ("count", "bomb", "order", "ladder", "factor", "reading", "priority",
                         "restrict"))
    w = _WildBuilder(b, sec, shapes, order)
    count = w.count()
    draws = w.draws(count)
    bomb = w.bomb()
    lengths = w.lengths(bomb, draws, max_cards)
    order_of = w.order_of(bomb)
    ladder = w.ladder(lengths)
    classes = [i for i, n in enumerate(order_of) if n in set(BombClass)]
    if BombKey.LENGTH in ladder and classes != list(range(len(order_of) - len(classes),
                                                           len(order_of))):
        raise b.err("wild order: with 'ladder length …' the shapes above the bomb come before "
                    "every class (they stand above bombs of every length; a place among the "
                    "lengths cannot be written yet)", b._clause(sec, "order"))
    factors, long = w.factors(lengths)
    policy = w.policy()
    return Wild(count, draws, bomb.name, order_of, factors, policy,
                w.priority(policy), w.restrictions(), lengths, ladder, long)
