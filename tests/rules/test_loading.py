"""Loading rules files: built-in names, paths, extends (positions in the right file, cycles),
encodings. Cases found by a fresh tester (kept as regressions)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ddzspec.errors import RulesError
from ddzspec.rules import load_rules


def test_a_local_file_never_shadows_a_builtin_name(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    src = Path(load_rules("classic").path).read_text()
    (tmp_path / "classic.rules").write_text(src.replace("kicker_rank_max 2 ", "kicker_rank_max 1 "))
    (tmp_path / "duel").write_text("garbage\n")
    monkeypatch.chdir(tmp_path)
    assert load_rules("classic").restriction("kicker_rank_max").param == 2
    assert load_rules("duel").deal.players == 2
    assert load_rules("./classic.rules").restriction("kicker_rank_max").param == 1
    assert load_rules("./classic").restriction("kicker_rank_max").param == 1


@pytest.mark.parametrize("name,message", [
    ("", "empty rules name"), (".", "is a folder"), ("nope", "no rules file 'nope'"),
])
def test_bad_names(name: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        load_rules(name)


def test_not_utf8(tmp_path: Path) -> None:
    f = tmp_path / "x.rules"
    f.write_bytes(b"\xff\xfe rules x\n")
    with pytest.raises(RulesError, match="not UTF-8"):
        load_rules(str(f))


def test_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    f = tmp_path / "bom.rules"
    f.write_bytes("\ufeffrules bom extends classic\n".encode())
    assert load_rules(str(f)).name == "bom"


def test_extends_cycle_is_located_and_named(tmp_path: Path) -> None:
    (tmp_path / "a.rules").write_text('rules a extends "b"\n')
    (tmp_path / "b.rules").write_text('# b\nrules b extends "a"\n')
    with pytest.raises(RulesError) as e:
        load_rules(str(tmp_path / "a.rules"))
    assert "a cycle of extends: a.rules -> b.rules -> a.rules" in str(e.value)
    assert (Path(e.value.path).name, e.value.line, e.value.column) == ("b.rules", 2, 17)


def test_error_in_a_child_deck_points_at_the_child(tmp_path: Path) -> None:
    f = tmp_path / "t.rules"
    f.write_text("rules t extends classic\ndeck {\n ranks 3 4 5 6 7 8 9 10 J Q K A 2\n"
                 " copies 3\n jokers B R\n}\n")
    with pytest.raises(RulesError) as e:
        load_rules(str(f))
    assert (e.value.path, e.value.line) == (str(f), 2)
    assert "the deck has 41 cards" in str(e.value)


def test_error_in_an_inherited_section_names_the_parent(tmp_path: Path) -> None:
    f = tmp_path / "t.rules"
    f.write_text("rules t extends classic\ndeck {\n ranks 5 6 7 8 9 10 J Q K A 2 3\n"
                 " copies 4\n jokers B R\n remove 3\n}\n")
    with pytest.raises(RulesError) as e:
        load_rules(str(f))
    # classic's `order` (inherited) lists the 3 that this deck removed: the conflict is this
    # file's doing, so it is located at this file's `extends`, naming the inherited section
    assert (e.value.path, e.value.line, e.value.column) == (str(f), 1, 17)
    assert "rank 3 is used in order" in str(e.value)
    assert "in the section inherited from classic.rules:11:" in str(e.value)


def test_a_child_group_that_breaks_an_inherited_shape(tmp_path: Path) -> None:
    f = tmp_path / "house.rules"
    f.write_text("rules house extends classic\ngroup chain = 5 .. A\n")
    with pytest.raises(RulesError) as e:
        load_rules(str(f))
    assert (e.value.path, e.value.line) == (str(f), 1)
    assert "run bound 12 is longer than group chain (10 ranks)" in str(e.value)
    assert "inherited from classic.rules:40:" in str(e.value)


@pytest.mark.parametrize("text,message", [
    ("rules x extends classic\nscoring { base 0 double bomb settle per_peasant }\n",
     "base must be at least 1"),
    ("rules x extends classic\nwin { target landlord 0 target peasant robs }\n",
     "a target of 'robs' needs call_rob bidding"),
    ("rules x extends classic\nscoring { base bid double rob settle per_peasant }\n",
     "double rob needs call_rob bidding"),
])
def test_robs_and_base_need_their_context(tmp_path: Path, text: str, message: str) -> None:
    f = tmp_path / "x.rules"
    f.write_text(text)
    with pytest.raises(RulesError, match=message):
        load_rules(str(f))


_CLASSIC = Path(load_rules("classic").path).read_text()


@pytest.mark.parametrize("old,new,line,message", [
    ("trio_single      = 3 x 1 + 1 single", "trio_single      = 5 x 1 + 1 single", 38,
     "shape trio_single: can never be formed: its body needs 5 cards of a rank"),
    ("rocket           = 1 x 2 in jokers", "rocket           = 2 x 1 in jokers", 48,
     "shape rocket: can never be formed"),
    ("precedence rocket > bomb > others", "precedence bomb > bomb > others", 50,
     "precedence: bomb is listed twice"),
    ("ends_at 3", "ends_at 7", 25, "ends_at 7 is not one of the bids (1 2 3)"),
    ("close_after 2 passes", "close_after 9 passes", 60,
     "with 3 players a trick closes when the 2 other(s) have passed in a row"),
    ("target peasant 0", "target peasant 30", 67,
     "a peasant holds 17 cards, so the deal would be won before it starts"),
    ("kicker_rank_max 2 ", "kicker_rank_max 0 ", 56, "N must be at least 1"),
])
def test_rules_that_could_never_work_are_rejected(tmp_path: Path, old: str, new: str, line: int,
                                                  message: str) -> None:
    assert old in _CLASSIC
    f = tmp_path / "broken.rules"
    f.write_text(_CLASSIC.replace(old, new))
    with pytest.raises(RulesError) as e:
        load_rules(str(f))
    assert e.value.line == line and message in str(e.value)


@pytest.mark.parametrize("old,new,message", [
    ("    copies 4", "    copeis 4",
     "8:5: unexpected 'copeis'; expected '}', a rank (3-9, 10, J, Q, K, A, 2, B, R), copies, "
     "jokers, ranks, remove"),
    ('rules classic "Classic', 'rules classic "Classic\n', "4:15: unterminated quoted title"),
])
def test_syntax_errors_say_what_this_place_accepts(tmp_path: Path, old: str, new: str,
                                                   message: str) -> None:
    f = tmp_path / "x.rules"
    f.write_text(_CLASSIC.replace(old, new, 1))
    with pytest.raises(RulesError) as e:
        load_rules(str(f))
    assert message in str(e.value)


@pytest.mark.parametrize("name", ["classic", "kawu", "duel", "duel-literal", "happy", "hebei",
                                  "laizi"])
def test_resolved_text_loads_back_to_the_same_rules(name: str) -> None:
    from dataclasses import replace

    from ddzspec.rules import load_rules, load_rules_text, resolved_text
    r = load_rules(name, without=("trio_pair",))
    text = resolved_text(r)
    assert "extends" not in text and "trio_pair " not in text
    back = load_rules_text(text)
    assert replace(back, path=r.path, parents=r.parents, without=r.without) == r
    assert back.digest == r.digest


def test_rules_text_that_must_stand_alone_refuses_extends_at_its_place() -> None:
    from ddzspec.rules import load_rules_text
    with pytest.raises(RulesError) as e:
        load_rules_text('# carried\nrules x "t"  extends "/etc/passwd"\n', path="<carried>",
                        resolve=False)
    assert (e.value.path, e.value.line, e.value.column) == ("<carried>", 2, 22)
    assert e.value.message.startswith('extends "/etc/passwd": refused: these rules must stand '
                                      "alone")
    assert load_rules_text(resolved_text_of("kawu"), resolve=False).name == "kawu"


def resolved_text_of(name: str) -> str:
    from ddzspec.rules import resolved_text
    return resolved_text(load_rules(name))


@pytest.mark.parametrize("how", ["load", "extends"])
def test_a_rules_file_over_the_cap_is_refused_unread(tmp_path: Path, how: str) -> None:
    import resource

    from ddzspec.rules.merge import MAX_RULES_BYTES
    big = tmp_path / "big.rules"
    with big.open("wb") as f:  # 512 MiB, sparse: its first word is a name, as in a log
        f.write(b"zqxtoken ")
        f.truncate(512 * 1024 * 1024)
    child = tmp_path / "child.rules"
    child.write_text('rules child extends "big"\n')
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(RulesError) as e:
        load_rules(str(big if how == "load" else child))
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 64 * 1024  # KiB
    said = "larger than 1024 KiB (the most a rules file may hold): not a rules file"
    assert MAX_RULES_BYTES == 1024 * 1024 and "zqxtoken" not in str(e.value)
    if how == "load":
        assert (e.value.path, e.value.message) == (str(big), said)
    else:  # said at the child's extends, naming the parent
        assert (e.value.path, e.value.line) == (str(child), 1)
        assert e.value.message == f"{big}: {said}"


def test_rules_text_over_the_cap_is_refused() -> None:
    from ddzspec.rules import load_rules_text
    with pytest.raises(RulesError, match="larger than 1024 KiB"):
        load_rules_text("rules x extends classic\n" + "#" * (1024 * 1024) + "\n")


def test_a_long_extends_chain_is_refused_at_the_link_that_passes_the_cap(tmp_path: Path) -> None:
    from ddzspec.rules.merge import MAX_EXTENDS_DEPTH
    n = 2000
    (tmp_path / "r0.rules").write_text("rules r0 extends classic\n")
    for i in range(1, n):
        (tmp_path / f"r{i}.rules").write_text(f'rules r{i} extends "r{i - 1}"\n')
    with pytest.raises(RulesError) as e:
        load_rules(str(tmp_path / f"r{n - 1}.rules"))
    deepest = tmp_path / f"r{n - MAX_EXTENDS_DEPTH}.rules"
    assert (e.value.path, e.value.line, e.value.column) == (str(deepest), 1, 21)
    assert e.value.message == (f'extends "r{n - MAX_EXTENDS_DEPTH - 1}": an extends chain of '
                               f"more than {MAX_EXTENDS_DEPTH} files (is it generated?)")
    # a chain at the cap loads (the built-in classic is its last file)
    top = load_rules(str(tmp_path / f"r{MAX_EXTENDS_DEPTH - 2}.rules"))
    assert len(top.parents) == MAX_EXTENDS_DEPTH - 1 and top.parents[-1] == "classic"


@pytest.mark.parametrize("name", ["b" * 300, "/tmp/" + "b" * 300 + "/x", "b" * 300 + ".rules"])
def test_a_name_too_long_for_the_system_is_bad_input(name: str) -> None:
    with pytest.raises(RulesError) as e:
        load_rules(name)
    assert str(e.value) == (f"{name[:60]}…: cannot be looked up: File name too long (a name in "
                            "a path is at most 255 bytes)")


# found by tester 8
def test_a_relative_rules_path_is_found_only_next_to_the_file_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    """A position file's rules line and a rules file's extends are relative to the file
    saying them (README); a file of that name in the working folder was taken instead when
    none lay next to it: the answer depended on where the command was run."""
    from ddzspec.errors import RulesError
    from ddzspec.rules import load_rules, load_rules_text
    work, sub = tmp_path / "work", tmp_path / "sub"
    work.mkdir()
    sub.mkdir()
    (work / "only.rules").write_text('rules only "no bombs" extends classic\n'
                                     "shapes { without bomb }\n")
    (sub / "y.pos").write_text("rules only.rules\nlandlord: 3333\npeasant: 4\n"
                               "to_move: landlord\n")
    (sub / "child.rules").write_text('rules child "x" extends "only"\n')
    monkeypatch.chdir(work)
    code, out, err = cli("solve", str(sub / "y.pos"), "--all")
    # was solved under work/only.rules (3333 not a bomb): winning moves 33, 333
    assert (code, out) == (2, "")
    assert err == (f"ddzspec: error: {sub / 'y.pos'}:1:7: only.rules: no rules file "
                   f"'only.rules' (tried {sub.resolve()}/only.rules)\n")
    with pytest.raises(RulesError, match=r"no rules file 'only' \(tried .*/sub/only, "):
        load_rules(str(sub / "child.rules"))  # was the working folder's only.rules
    # from the working folder itself, and for a rules text, the working folder is the base
    assert "bomb" not in [x.name for x in load_rules("only").shapes]
    assert "bomb" not in [x.name for x in load_rules_text('rules t extends "only"\n').shapes]
    (sub / "only.rules").write_text('rules only "next to it" extends classic\n')
    assert load_rules(str(sub / "child.rules")).parents == ("only",
                      "classic")  # type: ignore[attr-defined]


# found by tester 10
def test_a_rules_path_that_is_not_a_regular_file_is_called_so(cli: Any) -> None:
    # before: "no rules file '/dev/null' (tried /dev/null, ...)" though it exists
    code, out, err = cli("check", "/dev/null")
    assert code == 2 and out == ""
    assert err == ("ddzspec: error: /dev/null: is not a regular file (a device, a pipe or a "
                   "socket), not a rules file\n")
