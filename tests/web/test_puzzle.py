"""The web table's Puzzle routes through Starlette's TestClient: the shipped
puzzles, a typed position (any notation; its rules line names only offered rules, never a file),
a winning line, a move that throws the win away flagged at once with the refutation and taken
back, the 3-seat sides, hints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ddzspec.web import create_app

BOMB = "rules classic\nlandlord: 35\npeasant1: 8888KK\npeasant2: 6\nto_move: peasant1\nbase 2\n"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    return TestClient(create_app(data_dir=tmp_path_factory.mktemp("data")),
                      base_url="http://localhost")


def start(c: TestClient, body: dict[str, Any], notation: str = "en") -> dict[str, Any]:
    r = c.post(f"/api/puzzles/start?notation={notation}", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_the_shipped_puzzles_smallest_first_with_their_sides(client: TestClient) -> None:
    ps = client.get("/api/puzzles").json()["puzzles"]
    sizes = [sum(p["cards"]) for p in ps]
    assert sizes == sorted(sizes) and len(ps) >= 10
    assert all(p["source"] for p in ps)
    two = next(p for p in ps if p["seats"] == 2)
    three = next(p for p in ps if p["seats"] == 3)
    assert two["sides"] == ["landlord", "peasant"]
    assert three["sides"] == ["landlord", "peasants"]


def test_a_winning_line_then_the_solver_replies_until_the_end(client: TestClient) -> None:
    s = start(client, {"id": "DDZ2-14"})   # landlord TTQQ against peasant 3: every move wins
    g = s["game"]
    assert g["human_to_move"] and g["human_wins_with_best_play"] is True
    hint = client.get(f"/api/puzzles/{s['sid']}/hint").json()["moves"]
    assert hint == ["T", "Q", "TT", "QQ"]
    while not s["game"]["over"]:
        if s["game"]["human_to_move"]:
            move = client.get(f"/api/puzzles/{s['sid']}/hint").json()["moves"][0]
            r = client.post(f"/api/puzzles/{s['sid']}/move", json={"move": move})
            assert r.status_code == 200 and r.json()["verdict"]["keeps_win"] is True, r.text
        else:
            r = client.post(f"/api/puzzles/{s['sid']}/reply")
            assert r.status_code == 200, r.text
        s = r.json()
    assert s["game"]["winner"] == "landlord"
    r = client.post(f"/api/puzzles/{s['sid']}/reply")
    assert r.status_code == 400 and r.json()["error"]


def test_a_losing_move_is_flagged_with_the_refutation_and_taken_back(client: TestClient) -> None:
    s = start(client, {"id": "DDZ2-01"})
    sid = s["sid"]
    r = client.post(f"/api/puzzles/{sid}/move", json={"move": "3"}).json()
    v = r["verdict"]
    assert v["keeps_win"] is False and v["lines"][0].startswith("this loses: after 3")
    assert not r["game"]["human_to_move"]
    back = client.post(f"/api/puzzles/{sid}/takeback").json()
    assert back["game"]["history"] == [] and back["game"]["human_to_move"]
    assert back["verdict"] is None
    r2 = client.post(f"/api/puzzles/{sid}/takeback")
    assert r2.status_code == 400 and r2.json()["error"]


def test_bad_puzzle_input_is_a_clean_4xx(client: TestClient) -> None:
    s = start(client, {"id": "DDZ2-01"})
    sid = s["sid"]
    for body, words in (({"move": "KK55"}, "not a legal move"),
                        ({"move": "22"}, "does not hold"),
                        ({"move": "3X"}, "unknown symbol"),
                        ({"move": 3}, "null to pass"),
                        ({"cards": "3"}, "null to pass")):
        r = client.post(f"/api/puzzles/{sid}/move", json=body)
        assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
    assert client.get(f"/api/puzzles/{sid}").json()["game"] == s["game"]
    for path in ("", "/hint"):
        r = client.get(f"/api/puzzles/0123456789abcdef{path}")
        assert r.status_code == 404 and "no puzzle session" in r.json()["error"]
    assert client.post("/api/puzzles/0123456789abcdef/reply").status_code == 404
    for body, words in (({"id": "NOPE"}, "NOPE"), ({}, "needs \"id\""),
                        ({"id": "DDZ2-01", "side": "dragon"}, "dragon"),
                        ({"position": BOMB.replace("classic", "/etc/passwd")}, "not offered"),
                        ({"position": "rules \"../rules/classic.rules\"\nlandlord: 3\n"
                                      "peasant: 4\nto_move: landlord"}, "not offered"),
                        ({"position": "rules classic\nlandlord: 3X\npeasant: 4\n"
                                      "to_move: landlord"}, "position:2:")):
        r = client.post("/api/puzzles/start", json=body)
        assert r.status_code in (400, 404) and words in r.json()["error"], (body, r.text)


def test_a_typed_three_seat_position_from_the_peasants_side(client: TestClient) -> None:
    s = start(client, {"position": BOMB, "side": "peasants"})
    g = s["game"]
    assert g["human_seats"] == ["peasant1", "peasant2"] and g["to_move"] == "peasant1"
    assert g["human_to_move"] and s["puzzle"] is None
    # the landlord's side of the same position, typed in French
    s = start(client, {"position": BOMB.replace("8888KK", "8888RR"), "side": "landlord"},
              notation="fr")
    assert s["game"]["hands"]["peasant1"] == "8888RR" and not s["game"]["human_to_move"]




def test_a_typed_position_without_a_rules_line_is_classic_as_in_the_cli(
        client: TestClient, cli: Any) -> None:
    """Tester 7: the page refused a position with no ``rules`` line, which ``ddzspec solve``
    reads under its default rules (classic); both now take the default from DEFAULT_RULES."""
    import json

    text = "landlord: 3332\npeasant: A\nto_move: landlord\n"
    s = start(client, {"position": text})
    assert s["game"]["to_move"] == "landlord" and s["game"]["human_to_move"]
    hint = client.get(f"/api/puzzles/{s['sid']}/hint").json()["moves"]
    solved = cli("solve", "-", "--all", "--json", input=text)
    assert solved.exit_code == 0, solved.output
    assert sorted(hint) == sorted(json.loads(solved.output)["winning_moves"]) \
        == ["2", "33", "333", "333+2"]  # 333+2: classic (a 2 may be a kicker)
    from ddzspec.rules import DEFAULT_RULES
    assert DEFAULT_RULES == "classic"


def test_puzzle_sessions_free_the_solver_memory_and_are_bounded(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tester F5: each puzzle session kept its solver tables (tens of MiB) after the puzzle
    ended or was abandoned, and up to 200 sessions were kept. A finished puzzle frees them at
    once, an idle one (IDLE_SECONDS) too, and beyond MAX_SESSIONS the least recently used
    session is dropped, its memory freed. The tables are a cache: answers stay the same."""
    from ddzspec.puzzles import PuzzleGame, puzzle_by_id
    p = puzzle_by_id("DDZ2-14")
    game = PuzzleGame.start(p.position(), "landlord", seconds=10)
    assert game.hint() == ("T", "Q", "TT", "QQ") and game.solver_entries > 0
    game.release()
    assert game.solver_entries == 0 and game.hint() == ("T", "Q", "TT", "QQ")

    freed: list[int] = []
    real = PuzzleGame.release

    def spy(self: PuzzleGame) -> None:
        freed.append(self.solver_entries)
        real(self)
    monkeypatch.setattr(PuzzleGame, "release", spy)
    app = create_app(data_dir=tmp_path)
    monkeypatch.setattr(app.state.table.puzzles, "limit", 2)
    c = TestClient(app, base_url="http://localhost")
    # played to the end: freed at the last move
    s = start(c, {"id": "DDZ2-14"})
    while not s["game"]["over"]:
        sid = s["sid"]
        if s["game"]["human_to_move"]:
            move = c.get(f"/api/puzzles/{sid}/hint").json()["moves"][0]
            s = c.post(f"/api/puzzles/{sid}/move", json={"move": move}).json()
        else:
            s = c.post(f"/api/puzzles/{sid}/reply").json()
    assert s["game"]["winner"] == "landlord" and len(freed) == 1 and freed[0] > 0
    # two more sessions: the finished one is dropped (nothing left to free); then, of a
    # (started first, used last) and b, the least recently used, b, is dropped for a third
    a, b = start(c, {"id": "DDZ2-14"})["sid"], start(c, {"id": "DDZ2-15"})["sid"]
    assert freed[1:] == [0]
    assert c.get(f"/api/puzzles/{b}/hint").status_code == 200
    assert c.get(f"/api/puzzles/{a}/hint").status_code == 200
    start(c, {"id": "DDZ2-13"})
    assert len(freed) == 3 and freed[2] > 0  # b's tables, freed as it was dropped
    r = c.get(f"/api/puzzles/{b}")
    assert r.status_code == 404 and "dropped for newer ones" in r.json()["error"]
    assert c.get(f"/api/puzzles/{a}").status_code == 200
    # idle sessions (all, with no idle time allowed) keep their moves but free their memory
    monkeypatch.setattr(app.state.table.puzzles, "idle_seconds", 0.0)
    assert c.get(f"/api/puzzles/{a}").status_code == 200
    assert len(freed) == 5 and min(freed[3:]) > 0  # a's and the third session's
    assert c.get(f"/api/puzzles/{a}/hint").json()["moves"] == ["T", "Q", "TT", "QQ"]


@pytest.mark.parametrize("line", ['rules "\\u002fetc\\u002fpasswd"', "  rules:/etc/passwd",
                                  "rules\t../../../../etc/passwd", 'rules "classic.rules"',
                                  "rules classic\r\nrules /etc/passwd"])
def test_a_typed_position_never_names_a_file(client: TestClient, line: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from ddzspec.rules import merge as merge_mod
    monkeypatch.setattr(merge_mod, "read_bytes", lambda p: pytest.fail(f"{p} was read"))
    r = client.post("/api/puzzles/start", json={"position": BOMB.replace("rules classic", line)})
    assert r.status_code == 400, r.text
    assert "are not offered (offered: classic" in r.json()["error"]


# found by tester 8
def test_a_puzzle_on_a_french_page_speaks_french_hint_verdict_and_replies(
        tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from ddzspec.web import create_app
    c = TestClient(create_app(data_dir=tmp_path), base_url="http://localhost")
    r = c.post("/api/puzzles/start?notation=fr", json={"id": "DDZ2-15"})  # TTQQ against 3A
    assert r.status_code == 201, r.text
    s = r.json()
    assert s["game"]["hands"] == {"landlord": "TTDD", "peasant": "3A"}
    assert s["legal"] == ["T", "D", "TT", "DD"]  # was canonical English: T, Q, TT, QQ
    sid = s["sid"]
    # the page selects the hint's cards by their French symbols: "QQ" selected nothing
    assert c.get(f"/api/puzzles/{sid}/hint?notation=fr").json()["moves"] == ["TT", "DD"]
    assert c.get(f"/api/puzzles/{sid}/hint?notation=de").json()["moves"] == ["TT", "DD"]
    assert c.get(f"/api/puzzles/{sid}/hint").json()["moves"] == ["TT", "QQ"]
    r = c.post(f"/api/puzzles/{sid}/move?notation=fr", json={"move": "D"})
    assert r.status_code == 200, r.text
    v = r.json()["verdict"]
    assert v["move"] == "Q" and v["keeps_win"] is False  # the field stays canonical
    assert v["lines"][0] == "this loses: after D the peasant wins with A"  # was "after Q"
    # the page switched to German meanwhile: the take-back is in German
    r = c.post(f"/api/puzzles/{sid}/takeback?notation=de")
    assert r.json()["game"]["lines"] == ["took back landlord's D"]
    r = c.post(f"/api/puzzles/{sid}/move?notation=en", json={"move": "Q"})
    assert r.json()["verdict"]["lines"][0] == "this loses: after Q the peasant wins with A"


#: a laizi position (the tester's): the 6s wild; 7 9 10 J and the wild 6 make 7 8 9 10 J
WILD_POSITION = "rules laizi\nwild 6\nlandlord: 679TTJ\npeasant: 67TJK\nto_move: landlord\n"


def test_a_laizi_position_names_its_wild_rank_and_takes_the_hinted_wild_play(
        client: TestClient) -> None:
    s = start(client, {"position": WILD_POSITION})
    assert s["wild"] == [{"rank": 3, "symbol": "6"}]  # rank index: 3 4 5 6 -> 3
    hint = client.get(f"/api/puzzles/{s['sid']}/hint").json()["moves"]
    assert "79TJ*=789TJ" in hint
    # the page sends the hint's text when the selection is the hint's: accepted as it reads
    r = client.post(f"/api/puzzles/{s['sid']}/move", json={"move": "79TJ*=789TJ"})
    assert r.status_code == 200, r.text
    assert r.json()["game"]["history"][0] == ["landlord", "79TJ*=789TJ"]
    assert start(client, {"position": WILD_POSITION.replace("rules laizi\nwild 6\n", "")
                          })["wild"] == []
