"""The closed vocabularies of the rules model (bidding system, who speaks first, the direction
of play, settlement, kicker kinds, targets, base) are enum members or literals, written back
as the same words: loading gives members, a word outside a vocabulary is the same located error
as ever, and what digests, records and ``rules show`` carry is unchanged."""

from __future__ import annotations

import hashlib

import pytest

from ddzspec.errors import RulesError
from ddzspec.rules import (
    BiddingSystem,
    FirstBidder,
    Settle,
    Turn,
    load_rules,
    load_rules_text,
    resolved_text,
)


def test_the_words_of_each_vocabulary() -> None:
    assert [m.value for m in BiddingSystem] == ["auction", "call_rob"]
    assert [m.value for m in FirstBidder] == ["random", "next"]
    assert [m.value for m in Turn] == ["counterclockwise", "clockwise"]
    assert [m.value for m in Settle] == ["per_peasant"]


def test_loading_gives_members() -> None:
    c, k, d = load_rules("classic"), load_rules("kawu"), load_rules("duel")
    assert c.bidding.system is BiddingSystem.AUCTION
    assert d.bidding.system is BiddingSystem.CALL_ROB
    assert c.bidding.first_speaker is FirstBidder.RANDOM
    assert c.bidding.all_pass_first_bidder is FirstBidder.RANDOM
    assert k.bidding.all_pass_first_bidder is FirstBidder.NEXT
    assert d.bidding.all_pass_first_bidder is None
    assert c.deal.turn is Turn.COUNTERCLOCKWISE
    assert c.scoring.settle is Settle.PER_PEASANT
    assert (c.scoring.base, d.scoring.base) == ("bid", 1)
    assert (d.win.landlord, d.win.peasant) == (0, "robs")
    kinds = {s.kicker_kind for s in c.shapes}
    assert kinds == {None, "single", "pair"}
    assert all(type(k) is str for k in kinds if k is not None)  # a shape's repr: the digest


def test_a_clockwise_deal_loads_and_reads_back() -> None:
    text = ("rules x extends classic\n"
            "deal {\n    players 3\n    hand 17\n    talon 3\n    turn clockwise\n}\n")
    r = load_rules_text(text, "x.rules")
    assert r.deal.turn is Turn.CLOCKWISE
    assert "    turn clockwise\n" in resolved_text(r)


def test_the_words_written_back_are_unchanged() -> None:
    c, d = load_rules("classic"), load_rules("duel")
    assert c.bidding.clauses()[:2] == ["auction", "first_speaker random"]
    assert c.bidding.clauses()[-1] == "all_pass redeal first_bidder random"
    assert d.bidding.clauses()[0] == "call_rob"
    assert c.deal.clauses()[-1] == "turn counterclockwise"
    assert c.scoring.clauses()[0] == "base bid" and c.scoring.clauses()[-1] == "settle per_peasant"
    assert d.win.clauses() == ["target landlord 0", "target peasant robs"]
    text = resolved_text(c)
    assert "bidding auction {\n" in text and "BiddingSystem" not in text
    assert "'single'" in repr(c.shape("trio_single")) and "KickerKind" not in repr(c.shapes)


@pytest.mark.parametrize("name, digest, text_sha", [
    ("classic", "3d4db0a7089f80d18343", "b1efdebb5ed02800"),
    ("kawu", "605cf080f2dc60ae2716", "19d598b7163bf77a"),
    ("duel", "4efdb9e49246757bf2da", "3578a91805f09e49"),
])
def test_digest_and_resolved_text_are_pinned(name: str, digest: str, text_sha: str) -> None:
    """The table's cache key starts from the digest; a record carries the resolved text and its
    sha256: neither moves when a vocabulary's type does."""
    r = load_rules(name)
    assert r.digest == digest
    assert hashlib.sha256(resolved_text(r).encode()).hexdigest()[:16] == text_sha


@pytest.mark.parametrize("text, message", [
    ("bidding dutch {\n    first_speaker random\n}\n",
     "x.rules:2:9: unexpected 'dutch'; expected auction or call_rob"),
    ("deal {\n    players 3\n    hand 17\n    talon 3\n    turn sideways\n}\n",
     "x.rules:6:10: unexpected 'sideways'; expected counterclockwise or clockwise"),
    ("bidding auction {\n    first_speaker last\n    bids 1 2 3\n}\n",
     "x.rules:3:19: unexpected 'last'; expected random or next"),
    ("bidding auction {\n    bids 1 2 3\n    all_pass redeal first_bidder left\n}\n",
     "x.rules:4:34: unexpected 'left'; expected random or next"),
    ("scoring {\n    base 1\n    settle per_seat\n}\n",
     "x.rules:4:12: unexpected 'per_seat'; expected per_peasant"),
    ("shapes {\n    trio_trio = 3 x 1 + 1 trio\n}\n",
     "x.rules:3:27: shape trio_trio: unknown kicker kind 'trio' (kinds: single, pair)"),
    ("win {\n    target landlord bids\n}\n",
     "x.rules:3:21: unexpected 'bids'; expected a number, robs"),
])
def test_a_word_outside_a_vocabulary_is_a_located_error(text: str, message: str) -> None:
    with pytest.raises(RulesError) as e:
        load_rules_text("rules x extends classic\n" + text, "x.rules")
    assert str(e.value) == message
