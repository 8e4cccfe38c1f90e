"""The rules of a variant: the frozen model (:mod:`ddzspec.rules.model`) and its loader
(:mod:`ddzspec.rules.load` over its three steps: :mod:`~ddzspec.rules.parse`, the Lark grammar and
its transformer; :mod:`~ddzspec.rules.merge`, the ``extends`` chain; :mod:`~ddzspec.rules.build`,
validation).

Every public name is importable from here: ``from ddzspec.rules import Rules, load_rules``.
"""

from .load import DEFAULT_RULES, load_rules, load_rules_text
from .merge import builtin_rules, resolve_path
from .model import (
    DOUBLE_EVENTS,
    KIND_SIZE,
    RANK_OF_SYMBOL,
    Base,
    Bidding,
    BiddingSystem,
    Cap,
    Deal,
    FirstBidder,
    KickerKind,
    Restriction,
    Rules,
    Scoring,
    Settle,
    Shape,
    TalonFactor,
    TalonPattern,
    Target,
    Trick,
    Turn,
    Win,
    kicker_kind,
    rank_symbol,
    resolved_text,
)

__all__ = ["DEFAULT_RULES", "DOUBLE_EVENTS", "KIND_SIZE", "RANK_OF_SYMBOL", "Base", "Bidding",
           "BiddingSystem", "Cap", "Deal", "FirstBidder", "KickerKind", "Restriction", "Rules",
           "Scoring", "Settle", "Shape", "TalonFactor", "TalonPattern", "Target", "Trick",
           "Turn", "Win", "builtin_rules",
           "kicker_kind", "load_rules", "load_rules_text", "rank_symbol", "resolve_path",
           "resolved_text"]
