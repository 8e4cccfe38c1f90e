"""The rules of a variant (moved from ``ddzspec/rules.py``; every public name stays here)."""

from .model import (DOUBLE_EVENTS, KIND_SIZE, KNOWN_RESTRICTIONS, Bidding, Deal, Restriction,
                    Rules, Scoring, Shape, Trick, Win, builtin_rules, load_rules, load_rules_text,
                    resolve_path, resolved_text)

__all__ = ["DOUBLE_EVENTS", "KIND_SIZE", "KNOWN_RESTRICTIONS", "Bidding", "Deal", "Restriction",
           "Rules", "Scoring", "Shape", "Trick", "Win", "builtin_rules", "load_rules",
           "load_rules_text", "resolve_path", "resolved_text"]
