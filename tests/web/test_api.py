"""The web table's JSON API, through Starlette's TestClient: every route, every bad
input (unknown game, illegal move, out of turn, malformed cards, oversized body, malformed
JSON, rules not offered) answered with a 4xx JSON error that changes nothing, autosave after
every action, and resume after a restart (a new app over the same data folder)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ddzspec.game import Action, ActionKind, GameState
from ddzspec.game.record import Record, record_of, replay
from ddzspec.rules import load_rules
from ddzspec.web import create_app
from ddzspec.web.app import MAX_BODY

ROOT = Path(__file__).resolve().parents[2]
JSON = {"content-type": "application/json"}


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(data_dir=tmp_path), base_url="http://localhost")


def new_game(c: TestClient, rules: str = "classic", seat: int = 0, seed: int = 3,
             levels: Any = 1) -> dict[str, Any]:
    r = c.post("/api/games", json={"rules": rules, "seat": seat, "levels": levels,
                                   "seed": seed})
    assert r.status_code == 201, r.text
    return dict(r.json())


def to_person(c: TestClient, g: dict[str, Any]) -> dict[str, Any]:
    """Let the computers act until the person is on turn or the deal is over."""
    while g["computer_to_act"]:
        r = c.post(f"/api/games/{g['id']}/computer")
        assert r.status_code == 200, r.text
        g = r.json()
    return g


def saved_record(tmp: Path, gid: str) -> Record:
    obj = json.loads((tmp / "web-games" / f"{gid}.json").read_text())
    return Record.from_json(obj["record"])


def test_page_static_and_rules_offered(client: TestClient) -> None:
    page = client.get("/")
    # the page's scripts are ES modules: the entry module imports the others
    assert page.status_code == 200 and \
        "<script type=\"module\" src=\"/static/app.js\">" in page.text
    assert "window.ddz" not in page.text
    assert "http" not in page.text.replace("http-equiv", "")  # no CDN, no network
    for f in ("app.js", "style.css", "puzzle.js", "learn.js", "common.js"):
        r = client.get(f"/static/{f}")
        assert r.status_code == 200 and "https://" not in r.text, f
        if f.endswith(".js"):  # a module script runs only when served as JavaScript
            assert r.headers["content-type"].startswith("text/javascript"), f
            assert "window.ddz" not in r.text and "window.initExtras" not in r.text, f
    for path in ("/static/../games.py", "/static/%2e%2e/games.py", "/static/nothing.js"):
        r = client.get(path)
        assert r.status_code == 404 and "import" not in r.text, path
    meta = client.get("/api/rules").json()
    names = [r["name"] for r in meta["rules"]]
    assert names == ["classic", "duel", "duel-literal", "happy", "hebei", "kawu", "laizi",
                     "tiandi"]
    duel = next(r for r in meta["rules"] if r["name"] == "duel")
    assert (duel["players"], duel["bidding"]) == (2, "call_rob")
    # the ranks laizi's draw can give (rules/laizi.rules: 3 .. 2, never a joker): indices 0-12;
    # tiandi's two draws each give 3 .. 2
    assert [r["wild_ranks"] for r in meta["rules"]] == [[]] * 6 + [list(range(13))] * 2
    assert meta["levels"] == [1, 2, 3] and meta["notations"] == ["en", "fr", "de"]


def test_new_game_view_hides_the_other_hands(client: TestClient) -> None:
    g = new_game(client, seat=1, seed=7)
    st = GameState.new(load_rules("classic"), seed=7)
    assert g["view"]["hand"] == st.hands[1].format()
    assert [c["symbol"] for c in g["hand_cards"]] == list(st.hands[1].format())
    assert len(g["hand_cards"]) == 17 and g["view"]["cards_left"] == [17, 17, 17]
    text = json.dumps(g)
    assert st.hands[0].format() not in text and st.hands[2].format() not in text
    assert g["talon_cards"] is None and g["hands_at_end"] is None and g["talon_size"] == 3
    # seat 2 speaks first (GameState.new(seed=7)): a computer is on turn
    assert g["view"]["turn"] == 2 and g["computer_to_act"] and g["legal"]["kind"] is None
    # the counter: 54 cards less the 17 in the hand, per rank (B and R one each)
    assert sum(u["count"] for u in g["view"]["unseen"]) == 54 - 17


def test_a_full_classic_deal_through_the_api_autosaves_every_action(
        client: TestClient, tmp_path: Path) -> None:
    g = to_person(client, new_game(client, seed=3))
    gid = g["id"]
    assert g["legal"]["kind"] == "bid" and g["legal"]["choices"][0] == 0
    g = to_person(client, client.post(f"/api/games/{gid}/action",
                                      json={"kind": "bid", "value": 3}).json())
    assert g["view"]["landlord"] == 0 and g["view"]["base"] == 3
    assert len(g["talon_cards"]) == 3 and len(g["hand_cards"]) == 20
    n_actions = 0
    while g["view"]["phase"] != "over":
        legal = g["legal"]
        body = {"kind": "play", "cards": legal["moves"][0]} if legal["moves"] else \
            {"kind": "pass"}
        r = client.post(f"/api/games/{gid}/action", json=body)
        assert r.status_code == 200, r.text
        g = to_person(client, r.json())
        rec = saved_record(tmp_path, gid)
        assert len(rec.actions) == len(g["log"]) or len(g["log"]) == 60
        n_actions = len(rec.actions)
    res = g["view"]["result"]
    assert sum(res["scores"].values()) == 0 and res["base"] == 3
    assert res["stake"] == 3 * res["multiplier"]
    assert g["result_lines"][1].startswith("score: base 3 (the bid)")
    assert len(g["hands_at_end"]) == 3
    # the saved record replays to the same result
    rec = saved_record(tmp_path, gid)
    rep = replay(rec)
    assert rep.ok and len(rec.actions) == n_actions
    assert rep.state.result is not None and rep.state.result.to_json() == res
    # tester F6: the record downloads once the deal is over (seed 3, every hand)
    d = client.get(f"/api/games/{gid}/record")
    assert d.status_code == 200 and d.headers["content-disposition"] == \
        f'attachment; filename="ddzspec-{gid}.json"'
    down = Record.from_json(d.json())
    assert down.seed == 3 and down.result == res and len(down.actions) == n_actions
    # replay route: every move, every hand open
    rp = client.get(f"/api/games/{gid}/replay").json()
    assert len(rp["steps"]) == n_actions and len(rp["initial"]["hands"]) == 3
    assert rp["steps"][0]["text"].startswith("seat ")
    # the deal is over: no more actions
    r = client.post(f"/api/games/{gid}/action", json={"kind": "pass"})
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert client.post(f"/api/games/{gid}/computer").status_code == 409


def test_a_duel_deal_calls_robs_and_shows_the_handicap(client: TestClient) -> None:
    g = to_person(client, new_game(client, rules="duel", seat=0, seed=11))
    assert g["players"] == 2 and g["bidding"] == "call_rob"
    assert g["legal"]["kind"] in ("call", "rob") and g["legal"]["choices"] == [1, 0]
    # the counter counts the undealt cards too (seed 003): the whole deck less the hand
    deck = load_rules("duel").deck
    assert sum(u["count"] for u in g["view"]["unseen"]) == sum(deck) - 17
    assert {u["symbol"] for u in g["view"]["unseen"]} == \
        {s for s, n in zip("3456789TJQKA2BR", deck) if n}
    kind = g["legal"]["kind"]
    r = client.post(f"/api/games/{g['id']}/action", json={"kind": kind, "value": True})
    assert r.status_code == 200, r.text
    g = to_person(client, r.json())
    while g["view"]["phase"] == "bidding":
        g = to_person(client, client.post(f"/api/games/{g['id']}/action",
                                          json={"kind": g["legal"]["kind"],
                                                "value": False}).json())
    v = g["view"]
    assert v["targets"] is not None and v["landlord"] in (0, 1)
    peasant = 1 - v["landlord"]
    assert v["targets"][peasant] == v["robs"] and v["targets"][v["landlord"]] == 0


def test_illegal_selection_is_refused_with_the_explain_text(client: TestClient) -> None:
    rules = load_rules("classic")
    hands = ["3333444455556666B", "77778888999TTTTJR", "JJJQQQQKKKKAAAA22"]
    st = GameState.new(rules, hands=hands, talon="922", first=0)
    rec = record_of(st.apply(Action.bid(0, 3)))
    g = client.post("/api/records?seat=0&level=1", json=rec.to_json()).json()
    assert g["legal"]["kind"] == "play" and g["view"]["landlord"] == 0
    before = g["view"]["hand"]
    r = client.post(f"/api/games/{g['id']}/action", json={"kind": "play", "cards": "44445555"})
    assert r.status_code == 422
    msg = r.json()["error"]
    assert msg.startswith("44445555 is illegal: ")
    assert "quad_block" in msg and "kicker_rank_max" in msg
    # nothing changed
    assert client.get(f"/api/games/{g['id']}").json()["view"]["hand"] == before
    # a pass on the lead: the engine's message
    r = client.post(f"/api/games/{g['id']}/action", json={"kind": "pass"})
    assert r.status_code == 422 and "lead" in r.json()["error"]
    # cards not held
    r = client.post(f"/api/games/{g['id']}/action", json={"kind": "play", "cards": "77"})
    assert r.status_code == 422 and "does not hold" in r.json()["error"]
    # tester F7: the refusal writes its cards in the page's notation (V: valet, PJ: the joker)
    r = client.post(f"/api/games/{g['id']}/action?notation=fr",
                    json={"kind": "play", "cards": "VV"})
    assert r.status_code == 422 and r.json()["error"] == (
        "seat 0 does not hold these cards: it needs 2 x V (holds 0) (hand "
        "3333444455556666922 PJ)")
    # French notation: the same hand read in fr
    r = client.post(f"/api/games/{g['id']}/action?notation=fr",
                    json={"kind": "play", "cards": "3 3 3 3"})
    assert r.status_code == 200 and r.json()["log"][-1]["text"] == "plays 3333"


def test_unreadable_cards_are_one_line_quoting_the_input(client: TestClient) -> None:
    """Tester F16: the page showed the caret of a notation error on a line of its own, under
    nothing (a page cannot line it up). The message is one line quoting the input."""
    r = client.post("/api/explain", json={"move": "3344556677X"})
    assert r.status_code == 400 and r.json()["error"] == (
        "cards: column 11: unknown symbol 'X' in English notation (in '3344556677X')")
    s = client.post("/api/puzzles/start", json={"id": "DDZ2-01"}).json()
    r = client.post(f"/api/puzzles/{s['sid']}/move", json={"move": "3X"})
    assert r.status_code == 400 and r.json()["error"] == (
        "move '3X': column 2: unknown symbol 'X' in English notation (in '3X')")


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"kind": "play", "cards": "33X"}, 400, "unknown symbol 'X'"),
    ({"kind": "play", "cards": ""}, 400, "needs \"cards\""),
    ({"kind": "play", "cards": 33}, 400, "needs \"cards\""),
    ({"kind": "bid", "value": "3"}, 400, "integer"),
    ({"kind": "bid", "value": 5}, 422, "5"),
    ({"kind": "dance"}, 400, "unknown action kind"),
    (["bid", 3], 400, "JSON object"),
    # tester 8: a field the kind does not take was ignored (a bid of 1 "with" BR went through)
    ({"kind": "bid", "value": 1, "cards": "BR"}, 400,
     'unknown field "cards" for a bid (its fields are kind, value)'),
    ({"kind": "pass", "cards": "33"}, 400, 'unknown field "cards" for a pass (its fields are'),
    ({"kind": "bid", "vaule": 1}, 400, 'unknown field "vaule" for a bid'),
])
def test_malformed_actions_are_4xx_and_change_nothing(client: TestClient, body: Any,
                                                      status: int, words: str) -> None:
    g = to_person(client, new_game(client, seed=3))
    r = client.post(f"/api/games/{g['id']}/action", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    after = client.get(f"/api/games/{g['id']}").json()
    assert after["log"] == g["log"] and after["view"] == g["view"]


def test_out_of_turn_and_unknown_games(client: TestClient) -> None:
    g = new_game(client, seat=1, seed=7)   # seat 2 (a computer) speaks first
    r = client.post(f"/api/games/{g['id']}/action", json={"kind": "bid", "value": 1})
    assert r.status_code == 409 and "seat 2's turn" in r.json()["error"]
    for gid in ("0123456789abcdef", "../../etc/passwd", "x" * 16):
        for method, path in (("GET", ""), ("POST", "/action"), ("POST", "/computer"),
                             ("GET", "/record"), ("GET", "/replay")):
            r = client.request(method, f"/api/games/{gid}{path}", json={"kind": "pass"})
            assert r.status_code == 404, (gid, path, r.text)
            assert "root:" not in r.text
    # the person on turn: the computer route refuses
    g = to_person(client, new_game(client, seed=3))
    r = client.post(f"/api/games/{g['id']}/computer")
    assert r.status_code == 409 and "no computer" in r.json()["error"]
    assert client.get("/api/nothing").status_code == 404
    assert client.delete("/api/games").status_code == 405


def test_bad_requests_for_a_new_game(client: TestClient) -> None:
    cases = [
        ({"rules": "../rules/classic.rules", "seat": 0, "levels": 1}, "not offered"),
        ({"rules": "/etc/passwd"}, "not offered"),
        ({"rules": "classic", "seat": 3}, "not a seat"),
        ({"rules": "classic", "seat": 0, "levels": [1, 4, 1]}, "not a level"),
        ({"rules": "classic", "seat": 0, "levels": [1, 1]}, "one level"),
        ({"rules": "classic", "seat": 0, "levels": 1, "seed": [1]}, "not a seed"),
    ]
    for body, words in cases:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
    r = client.post("/api/games", content=b"{\"rules\": ", headers={
        "content-type": "application/json"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    r = client.post("/api/games", content=b"\xff\xfe", headers=JSON)
    assert r.status_code == 400 and "UTF-8" in r.json()["error"]
    r = client.post("/api/games", content=b"", headers=JSON)
    assert r.status_code == 400 and "JSON body" in r.json()["error"]
    r = client.post("/api/games", content=b"[" * 100000 + b"]" * 100000, headers=JSON)
    assert r.status_code == 400
    big = b"{\"rules\": \"" + b"x" * (MAX_BODY + 1) + b"\"}"
    r = client.post("/api/games", content=big, headers=JSON)
    assert r.status_code == 413 and "larger than" in r.json()["error"]
    r = client.get("/api/games?notation=klingon")
    assert r.status_code == 400 and "notation" in r.json()["error"]
    assert client.get("/api/games").json()["games"] == []  # nothing was created


def test_record_download_upload_and_resume_after_restart(tmp_path: Path) -> None:
    c1 = TestClient(create_app(data_dir=tmp_path), base_url="http://localhost")
    g = to_person(c1, new_game(c1, seed=5, levels=[1, 2, 3]))
    g = to_person(c1, c1.post(f"/api/games/{g['id']}/action",
                              json={"kind": "bid", "value": 3}).json())
    gid = g["id"]
    # tester F6: mid-deal the record (seed, every hand) is refused, as the replay is
    d = c1.get(f"/api/games/{gid}/record")
    assert d.status_code == 409 and d.json()["error"] == (
        "the record can be downloaded when the deal is over: it holds the seed and every hand "
        "(the deal is autosaved meanwhile)")
    assert "attachment" not in d.headers.get("content-disposition", "")
    assert c1.get(f"/api/games/{gid}/replay").status_code == 409  # hands stay hidden
    rec = saved_record(tmp_path, gid)  # the autosaved record, uploaded below
    assert rec.rules_name == "classic" and rec.seed == 5 and rec.result is None
    d_content, d_json = (rec.dumps() + "\n").encode(), rec.to_json()
    # restart: a new app over the same folder resumes the same deal, same seats and levels
    c2 = TestClient(create_app(data_dir=tmp_path), base_url="http://localhost")
    assert [x["id"] for x in c2.get("/api/games").json()["games"]] == [gid]
    g2 = c2.get(f"/api/games/{gid}").json()
    assert g2["view"] == g["view"] and g2["levels"] == [None, 2, 3] and g2["seat"] == 0
    # upload: replayed and validated; a new game with its own id
    up = c2.post("/api/records?seat=0&level=1", content=d_content, headers=JSON)
    assert up.status_code == 201 and up.json()["id"] != gid
    assert up.json()["view"]["hand"] == g["view"]["hand"]
    # a tampered record: the first bad action is named
    bad = json.loads(d_content)
    bad["actions"][0] = {"seat": 2, "bid": 7}
    r = c2.post("/api/records", json=bad)
    assert r.status_code == 400 and "action 0" in r.json()["error"]
    # a valid record under rules the server does not offer: refused, nothing replayed
    banned = load_rules("classic", without=("trio_pair",))
    other = record_of(GameState.new(banned, seed=5)).to_json()
    r = c2.post("/api/records", json=other)
    assert r.status_code == 400, r.text
    assert "are not among the rules offered (classic, duel" in r.json()["error"]
    r = c2.post("/api/records", json={"format": "nope"})
    assert r.status_code == 400 and "not a ddzspec record" in r.json()["error"]
    r = c2.post("/api/records?seat=x", json=d_json)
    assert r.status_code == 400
    # a corrupt save file is a clean error, not a crash
    (tmp_path / "web-games" / "00000000000000aa.json").write_text("{")
    r = c2.get("/api/games/00000000000000aa")
    assert r.status_code == 500 and "cannot be resumed" in r.json()["error"]


def test_explain_route(client: TestClient) -> None:
    r = client.post("/api/explain", json={"move": "44445555", "rules": "classic"})
    d = r.json()
    assert r.status_code == 200 and d["legal"] is False and d["move"] == "44445555"
    assert any("quad_block" in ln for ln in d["lines"])
    d = client.post("/api/explain?notation=fr", json={"move": "RRR+3"}).json()
    assert d["legal"] is True and d["move"] == "RRR+3"
    # the page's words: the shape in words, a ten as the faces write it (the CLI's text kept)
    d = client.post("/api/explain", json={"move": "4TTT"}).json()
    assert [(r["text"], r["words"]) for r in d["readings"]] == [
        ("trio_single TTT+4", "trio single 10 10 10+4")]
    r = client.post("/api/explain", json={"move": "33X"})
    assert r.status_code == 400 and "unknown symbol" in r.json()["error"]
    r = client.post("/api/explain", json={"move": "33", "rules": "house"})
    assert r.status_code == 400 and "not offered" in r.json()["error"]
    assert client.post("/api/explain", json={"cards": "33"}).status_code == 400


def test_explain_under_wild_rules_needs_the_wild_rank(client: TestClient) -> None:
    # laizi without a wild rank: refused, never read naturally (4777 is no natural move either)
    for move in ("4777", "4***"):
        r = client.post("/api/explain", json={"move": move, "rules": "laizi"})
        assert r.status_code == 400 and r.json()["error"].startswith(
            "laizi has wild cards: name the wild rank, e.g. {\"move\": \"4***\", \"rules\": "
            "\"laizi\", \"wild\": \"7\"}")
    # with it: the readings as the command line explains them (explain 4*** --wild 7): 4 and
    # three wild cards read 4444 (soft bomb), 444+X (12) and XXX+4 (12): 25 readings
    d = client.post("/api/explain", json={"move": "4777", "rules": "laizi",
                                          "wild": "7"}).json()
    assert (d["move"], d["legal"], d["wild"], len(d["wild_readings"])) == ("4***", True, "7", 25)
    assert d["lines"][0] == ("4*** (wild 7): 25 readings of 2 types (trio_single, bomb); on "
                             "both sides of the bomb line (the multiplier depends on the "
                             "reading)")
    assert d["lines"][-1].startswith("reading strongest: leading, bomb 4444 (soft; wild cards "
                                     "as 444)")
    bomb = {"type": "bomb", "cards": "4444", "body": "4444", "kickers": "", "bomb_class": "soft",
            "wild_as": "444", "ruled_out_by": [], "words": "777 as 444 · bomb 4444 (soft)"}
    # the page's words and the reading a lead takes (reading strongest: bomb first), by index
    assert (d["policy"], d["wild_readings"][d["taken"]]) == ("strongest", bomb)
    # the page writes a shape in words and a ten as the faces do: TTT7 reads TTT+9 with 7 as 9
    d = client.post("/api/explain", json={"move": "TTT7", "rules": "laizi", "wild": "7"}).json()
    assert [r["words"] for r in d["wild_readings"]][6:8] == [
        "7 as 9 · trio single 10 10 10+9", "7 as 10 · bomb 10 10 10 10 (soft)"]
    d = client.post("/api/explain", json={"move": "B*", "rules": "laizi", "wild": "7"}).json()
    assert d["legal"] is False and d["lines"][-1] == (
        "no reading: not a legal move, whatever rank (but a joker) each wild card stands for")
    for body, error in (
            ({"wild": "R"}, "\"wild\": R: a joker is never wild"),
            ({"wild": "X"}, "\"wild\": column 1: unknown symbol 'X'"),
            ({"wild": 7}, "\"wild\": the wild rank as cards text, e.g. \"7\""),
            ({"wild": "7", "move": "4***=4444"}, "column 5: '=' declares a reading, but laizi "
             "takes the strongest reading"),
            ({"wild": "7", "rules": "classic", "move": "33"},
             "\"wild\": classic has no wild cards")):
        r = client.post("/api/explain", json={"move": "4***", "rules": "laizi", **body})
        assert r.status_code == 400 and error in r.json()["error"], r.json()


def test_explain_of_a_declared_reading(tmp_path: Path) -> None:
    c = TestClient(create_app([str(ROOT / "examples" / "laizi-declared.rules")],
                              data_dir=tmp_path), base_url="http://localhost")
    name = c.get("/api/rules").json()["rules"][-1]["name"]
    d = c.post("/api/explain", json={"move": "333*=3333", "rules": name, "wild": "7"}).json()
    # 333*: 3333 and 333+X for X in 4 .. 2: 13 readings, the one declared said taken
    assert d["declared"] == "3333" and len(d["wild_readings"]) == 13
    # the one declared is the one taken: its index, and the page's words for it
    assert (d["policy"], d["wild_readings"][d["taken"]]["words"]) == (
        "declared", "7 as 3 · bomb 3333 (soft)")
    assert "  bomb 3333 (soft; wild cards as 3)  <- declared" in d["lines"]
    assert d["lines"][-1] == "declared: 333*=3333 is taken, bomb 3333 (soft; wild cards as 3)"
    r = c.post("/api/explain", json={"move": "333*=*333", "rules": name, "wild": "7"})
    assert r.status_code == 400 and "column 6: the declared reading names natural ranks only" \
        in r.json()["error"]


def test_rules_files_named_at_start_are_offered(tmp_path: Path) -> None:
    c = TestClient(create_app([str(ROOT / "examples" / "house.rules")], data_dir=tmp_path),
                   base_url="http://localhost")
    names = [r["name"] for r in c.get("/api/rules").json()["rules"]]
    assert len(names) == 9 and names[:8] == ["classic", "duel", "duel-literal", "happy", "hebei",
                                             "kawu", "laizi", "tiandi"]
    g = c.post("/api/games", json={"rules": names[4], "seat": 0, "levels": 1, "seed": 1})
    assert g.status_code == 201, g.text
    assert g.json()["rules"] == names[4]


def test_rules_already_offered_are_not_offered_twice() -> None:
    from ddzspec.web.games import Offer
    house = str(ROOT / "examples" / "house.rules")
    # before: --rules laizi offered "laizi" and "laizi-2", both titled the same
    offer = Offer.build(["laizi", str(ROOT / "rules" / "classic.rules"), house, house])
    assert list(offer.rules)[:8] == ["classic", "duel", "duel-literal", "happy", "hebei",
                                     "kawu", "laizi", "tiandi"]
    assert len(offer.rules) == 9 and offer.added == (list(offer.rules)[8],)
    assert offer.ignored == (
        "--rules laizi: the same rules as laizi, offered already (not offered twice)",
        f"--rules {ROOT / 'rules' / 'classic.rules'}: the same rules as classic, offered "
        "already (not offered twice)",
        f"--rules {house}: the same rules as {offer.added[0]}, offered already (not offered "
        "twice)")


def test_serve_prints_the_address_binds_localhost_and_serves(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys
    import urllib.request
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "ddzspec", "serve", "--port", "0",
                             "--data-dir", str(tmp_path), "--rules", "laizi"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        # a built-in named again: one warning line, offered once (before: laizi and laizi-2)
        assert proc.stderr.readline() == ("ddzspec: warning: --rules laizi: the same rules as "
                                          "laizi, offered already (not offered twice)\n")
        line = proc.stdout.readline()
        assert line.startswith("ddzspec: the table is at http://127.0.0.1:"), line
        url = line.split()[5]
        with urllib.request.urlopen(url + "api/rules", timeout=10) as r:
            names = [x["name"] for x in json.load(r)["rules"]]
            assert names[0] == "classic" and names.count("laizi") == 1 and len(names) == 8
        with urllib.request.urlopen(url, timeout=10) as r:
            assert b"Dou Dizhu" in r.read()
    finally:
        proc.terminate()
        proc.wait(10)
    assert (tmp_path / "web-games").is_dir()


def test_serve_refuses_bad_options_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys
    bad = tmp_path / "bad.rules"
    bad.write_text("rules nope\n")
    for args, words in ((["--rules", str(tmp_path / "missing.rules")], "missing.rules"),
                        (["--rules", str(bad)], "bad.rules"),
                        (["--port", "70000"], "--port")):
        r = subprocess.run([sys.executable, "-m", "ddzspec", "serve", *args], check=False,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, (args, r.stderr)
        assert r.stderr.startswith("ddzspec: error:") and words in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    r = subprocess.run([sys.executable, "-m", "ddzspec", "--help"], check=False,
                       capture_output=True, text=True, timeout=60)
    assert "serve" in r.stdout and "web table" in r.stdout


# --------------------------------------------- handicaps, move text, unplayable rules, details


def first_choice_deal(rules: str, seed: int) -> GameState:
    """A finished deal where every seat bids 3, calls, robs, leads its smallest move and
    beats with its smallest."""
    st = GameState.new(load_rules(rules), seed=seed)
    while st.result is None:
        acts = st.legal_actions()
        st = st.apply(acts[-1] if acts[0].kind is ActionKind.BID else acts[0])
    return st


def test_a_handicap_win_says_the_target_and_shows_the_cards_left(client: TestClient) -> None:
    st = first_choice_deal("duel", 0)
    assert st.result is not None and st.result.out_seat == 1
    assert st.hands[1].format() == "57JQ"    # four robs: the peasant wins at 4 cards
    g = client.post("/api/records?seat=0", json=record_of(st).to_json()).json()
    assert g["result_reason"] == "seat 1 reached its target: 4 cards left"
    assert [c["symbol"] for c in g["cards_at_end"][1]] == ["5", "7", "J", "Q"]
    assert g["levels"] == [None, 2]          # an upload's computers default to level 2
    up = client.post("/api/records?seat=1&levels=3,1", json=record_of(st).to_json()).json()
    assert up["levels"] == [3, None] and up["seat"] == 1
    r = client.post("/api/records?levels=3,x", json=record_of(st).to_json())
    assert r.status_code == 400 and "?levels=" in r.json()["error"]
    # a classic deal ends with a seat out of cards
    g = client.post("/api/records", json=record_of(first_choice_deal("classic", 1)).to_json())
    assert g.json()["result_reason"].endswith("went out"), g.text


def test_moves_are_in_canonical_text_body_then_kickers(client: TestClient) -> None:
    # classic seed 3, seat 0: the hand has moves with kickers (a trio plus a lower card)
    g = new_game(client, seed=3)
    from ddzspec.cards import parse_cards
    from ddzspec.moves import legal_moves
    hand = parse_cards(g["view"]["hand"]).cards
    want = [r.format() for r in legal_moves(hand, None, load_rules("classic")).moves]
    assert any("+" in m for m in want), want   # this hand has moves with kickers
    g = to_person(client, g)
    while g["legal"]["kind"] != "play":
        g = to_person(client, client.post(f"/api/games/{g['id']}/action", json={
            "kind": "bid", "value": g["legal"]["choices"][-1]}).json())
    hand = parse_cards(g["view"]["hand"]).cards
    assert g["legal"]["moves"] == [r.format() for r in
                                   legal_moves(hand, None, load_rules("classic")).moves]
    kicked = [m for m in g["legal"]["moves"] if "+" in m]
    assert kicked and all(m.index("+") >= 3 for m in kicked)


def test_unplayable_rules_are_offered_for_learning_only(client: TestClient) -> None:
    rules = {r["name"]: r for r in client.get("/api/rules").json()["rules"]}
    assert rules["classic"]["playable"] and rules["duel"]["playable"]
    assert rules["happy"]["playable"] and rules["hebei"]["playable"]
    assert not rules["duel-literal"]["playable"]
    assert "several readings" in rules["duel-literal"]["why"]
    assert rules["laizi"]["playable"] and rules["laizi"]["why"] is None  # issue 26
    r = client.post("/api/games", json={"rules": "duel-literal"})
    assert r.status_code == 400
    assert r.json()["error"].startswith("duel-literal can be studied in Learn but not played")
    assert client.get("/api/learn/rules/duel-literal").status_code == 200  # still in Learn


# found by the web table's tester
def test_api_defaults_unknown_fields_methods_and_oversized_moves(client: TestClient) -> None:
    g = client.post("/api/games", json={"rules": "classic", "seed": 1})
    assert g.status_code == 201 and g.json()["levels"] == [None, 2, 2]   # as the CLI
    r = client.post("/api/games", json={"rules": "classic", "seet": 1})
    assert r.status_code == 400 and r.json()["error"].startswith('unknown field "seet"')
    gid = g.json()["id"]
    assert client.get(f"/api/games/{gid.upper()}").json()["id"] == gid
    r = client.get("/api/puzzles/start")
    assert r.status_code == 405 and "POST" in r.json()["error"]
    r = client.get("/api/learn/diff?a=classic")
    assert r.status_code == 400 and "b is missing" in r.json()["error"]
    # a move longer than any is refused by its length, before its cards are read
    r = client.post("/api/explain", json={"move": "3" * 300})
    assert r.status_code == 400 and r.json()["error"].startswith('"move" is 300 characters')
    r = client.post("/api/explain", json={"move": "3 " * 150})
    assert r.status_code == 400 and "300 characters" in r.json()["error"]
    r = client.post("/api/explain", json={"move": "3" + " " * 250})
    assert r.status_code == 400 and "longer than any move" in r.json()["error"]
    saved = client.get("/api/games").json()["games"][0]
    assert saved["seat"] == 0 and saved["title"] and saved["points"] is None


@pytest.mark.parametrize("target", ["/etc/passwd", "{tmp}/missing", "{tmp}/huge"])
def test_an_uploaded_record_whose_rules_extend_a_file_reads_nothing(
        client: TestClient, tmp_path: Path, target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import hashlib

    from ddzspec.rules import merge as merge_mod
    with (tmp_path / "huge").open("wb") as f:  # 512 MiB, sparse
        f.truncate(512 * 1024 * 1024)
    ext = json.dumps(target.replace("{tmp}", str(tmp_path)))
    obj = record_of(GameState.new(load_rules("classic"), seed=1)).to_json()
    text = f"rules classic extends {ext}"
    obj["rules"].update(text=[text], sha256=hashlib.sha256((text + "\n").encode()).hexdigest())
    monkeypatch.setattr(merge_mod, "read_bytes", lambda p: pytest.fail(f"{p} was read"))
    r = client.post("/api/records", json=obj)
    assert r.status_code == 400
    assert r.json()["error"] == (
        "the record cannot be replayed: the record's rules cannot be loaded: <rules of the "
        f"record: classic>:1:23: extends {ext}: refused: these rules must stand alone (as a "
        "record carries them: resolved, with no extends), so no other file is read")
    assert client.get("/api/games").json()["games"] == []  # nothing was created


# found by tester 8
def test_serve_names_the_data_folder_it_cannot_use(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   cli: Any) -> None:
    f = tmp_path / "a-file"
    f.write_text("x")
    code, _, err = cli("serve", "--data-dir", str(f), "--port", "0")
    # was "ddzspec: error: --data-dir: Not a directory"
    assert (code, err) == (2, f"ddzspec: error: --data-dir {f}: cannot autosave deals in "
                              f"{f}/web-games: Not a directory\n")
    monkeypatch.setenv("DDZSPEC_DATA_DIR", str(f))
    code, _, err = cli("serve", "--port", "0")
    assert (code, err) == (2, f"ddzspec: error: the data folder: cannot autosave deals in "
                              f"{f}/web-games: Not a directory; give --data-dir DIR (or set "
                              "DDZSPEC_DATA_DIR)\n")


# found by tester 10
def test_a_new_web_game_without_rules_says_a_name_is_required(tmp_path: Path) -> None:
    client = TestClient(create_app(data_dir=tmp_path), base_url="http://localhost")
    r = client.post("/api/games", json={"seat": 0, "levels": 1})
    # before: "rules null are not offered"
    assert r.status_code == 400
    assert r.json()["error"].startswith("rules: a name is required (offered: classic")


# found by a fresh tester
def test_an_autosave_too_large_or_a_link_is_refused_unread(tmp_path: Path) -> None:
    """A 2 GiB file in the data folder was read whole (the server stayed at 2.16 GB); a link
    was followed. Each is now refused in one line, and the listing still answers."""
    from ddzspec.web.games import MAX_AUTOSAVE
    client = TestClient(create_app(data_dir=tmp_path), base_url="http://localhost")
    folder = tmp_path / "web-games"
    folder.mkdir(exist_ok=True)
    with (folder / "cccccccccccccccc.json").open("wb") as w:
        w.truncate(MAX_AUTOSAVE + 1)
    (folder / "dddddddddddddddd.json").symlink_to("/etc/passwd")
    r = client.get("/api/games/cccccccccccccccc")
    assert r.status_code == 500
    assert r.json()["error"] == ("game cccccccccccccccc: its saved file cannot be resumed: "
                                 "larger than 4 MiB: not an autosave file")
    r = client.get("/api/games/dddddddddddddddd")
    assert r.status_code == 500 and r.json()["error"] == (
        "game dddddddddddddddd: its saved file cannot be resumed: a link, not an autosave file")
    assert client.get("/api/games").status_code == 200


def test_errors_are_answered_by_the_exception_handlers_by_class() -> None:
    """The app's exception handlers (Starlette's, looked up along the exception's class
    hierarchy) answer what a route raises as the JSON errors the routes always gave: the most
    specific class wins, so rules that are both a RulesError and a GameError are a 422."""
    from starlette.applications import Starlette
    from starlette.routing import Route

    from ddzspec.errors import DdzError, GameError, NotationError, RecordError, UnplayableRulesError
    from ddzspec.web.games import WebError
    from ddzspec.web.guard import Busy
    from ddzspec.web.shared import EXCEPTION_HANDLERS

    raised: list[Exception] = []

    async def boom(request: Any) -> Any:
        raise raised[-1]
    app = Starlette(routes=[Route("/api/boom", boom)], exception_handlers=EXCEPTION_HANDLERS)
    c = TestClient(app, base_url="http://localhost")
    cases: list[tuple[Exception, int, str]] = [
        (WebError("not now", 409), 409, "not now"),
        (NotationError("unknown card", "33X", 3), 400,
         "cards: column 3: unknown card (in '33X')"),
        (GameError("out of turn"), 422, "out of turn"),
        (UnplayableRulesError("ambiguous"), 422, "<rules>: ambiguous"),
        (RecordError("not a record"), 400, "not a record"),
        (DdzError("bad"), 400, "bad"),
        (Busy("busy: try again", 2), 503, "busy: try again"),
    ]
    for exc, status, message in cases:
        raised.append(exc)
        r = c.get("/api/boom")
        assert (r.status_code, r.json()) == (status, {"error": message}), exc
    assert r.headers["retry-after"] == "2"
    r = c.get("/api/nothing")
    assert (r.status_code, r.json()) == (404, {"error": "no such route: GET /api/nothing"})
    r = c.post("/api/boom")
    assert r.status_code == 405 and r.json() == {"error": "method not allowed: POST /api/boom"}
    assert c.get("/nothing").text == "Not Found"


def test_a_doubling_round_is_offered_as_buttons(tmp_path: Path) -> None:
    """examples/qq-bidding.rules: the person calls or robs, then chooses a factor by its name;
    a factor that is not a choice is refused and changes nothing."""
    c = TestClient(create_app([str(ROOT / "examples" / "qq-bidding.rules")], data_dir=tmp_path),
                   base_url="http://localhost")
    g = to_person(c, new_game(c, rules="qq-bidding", seat=0, seed=1))
    while g["view"]["phase"] == "bidding":
        g = to_person(c, c.post(f"/api/games/{g['id']}/action",
                                json={"kind": g["legal"]["kind"], "value": True}).json())
    assert g["view"]["phase"] == "doubling" and g["view"]["turn"] == 0
    legal = g["legal"]
    assert legal["kind"] == "double" and legal["choices"] == [1, 2, 4]
    assert legal["names"] == ["no", "double", "super"]
    bad = c.post(f"/api/games/{g['id']}/action", json={"kind": "double", "value": 3})
    assert 400 <= bad.status_code < 500 and "the choices are" in bad.text
    r = c.post(f"/api/games/{g['id']}/action", json={"kind": "double", "value": 4})
    assert r.status_code == 200, r.text
    factors = r.json()["view"]["factors"]
    assert {"kind": "super", "times": 4, "seat": 0} in [
        {k: f[k] for k in ("kind", "times", "seat")} for f in factors]
    assert {"seat": 0, "kind": "double", "choice": "super", "text": "chooses super (x4)"} in [
        {k: e[k] for k in ("seat", "kind", "choice", "text")} for e in r.json()["log"]]


def test_the_log_names_a_kick_and_a_counter_kick_as_the_rules_do() -> None:
    """rules/hebei.rules: a peasant kicks (x2), the landlord answers with a counter-kick
    (x2): the log says each choice's name, never "doubles x2" for both."""
    from ddzspec.web.games import WebGame
    g = GameState.new(load_rules("hebei"), seed=20)
    g = g.apply(Action.bid(g.turn, 3))
    assert g.landlord is not None
    kicker, quiet = (g.landlord + 1) % 3, (g.landlord + 2) % 3
    for a in (Action.double(kicker, 2), Action.double(quiet, 1),
              Action.double(g.landlord, 2)):
        g = g.apply(a)
    log = WebGame("x", "hebei", g, g.landlord, (None, 1, 1)).to_json()["log"]
    assert [(e["seat"], e["choice"], e["text"]) for e in log[-3:]] == [
        (kicker, "kick", "chooses kick (x2)"), (quiet, "no", "chooses no"),
        (g.landlord, "counter", "chooses counter (x2)")]
    assert log[0]["choice"] is None and log[0]["text"] == "bids 3"


def test_show_cards_are_buttons_and_a_shown_hand_is_face_up(tmp_path: Path) -> None:
    """examples/show-cards.rules: the person shows its hand once dealt; a computer's shown
    hand reaches the page face up, the others' stay hidden."""
    c = TestClient(create_app([str(ROOT / "examples" / "show-cards.rules")], data_dir=tmp_path),
                   base_url="http://localhost")
    g = to_person(c, new_game(c, rules="show-cards", seat=0, seed=4))
    assert g["view"]["phase"] == "showing"
    assert g["legal"] == {"kind": "show", "choices": [1, 2], "names": ["no", "show"],
                          "moves": [], "can_pass": False}
    r = c.post(f"/api/games/{g['id']}/action", json={"kind": "show", "value": 2})
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["view"]["shown"]["0"] == g["view"]["hand"]
    assert g["shown_cards"] == []  # the person's own hand is not repeated
    others = {str(s) for s in range(1, 3)} & set(g["view"]["shown"])
    assert [e["seat"] for e in g["shown_cards"]] == sorted(int(s) for s in others)


def test_a_show_before_the_deal_is_offered_with_no_card_in_hand(client: TestClient) -> None:
    """rules/happy.rules: before the deal the person decides without seeing its hand (none
    is sent); showing x5 puts the hand face up as soon as it is dealt."""
    g = to_person(client, new_game(client, rules="happy", seat=0, seed=4))
    assert g["view"]["round"] == {"kind": "show", "stage": "before deal"}
    assert g["hand_cards"] == [] and g["view"]["hand"] == "" and g["view"]["cards_left"] == [0] * 3
    assert g["legal"]["choices"] == [1, 5] and g["legal"]["names"] == ["no", "show"]
    r = client.post(f"/api/games/{g['id']}/action", json={"kind": "show", "value": 5})
    assert r.status_code == 200, r.text
    g = to_person(client, r.json())
    assert len(g["hand_cards"]) == 17 and g["view"]["shown"]["0"] == g["view"]["hand"]
    assert {"kind": "show", "times": 5, "seat": 0} in g["view"]["factors"]


def test_the_page_gets_each_seats_own_settlement_multiplier() -> None:
    """QQ, scope pair (examples/qq-bidding.rules): the landlord (seat 1) doubles, seat 2
    super-doubles, seat 0 does not. The person at seat 2 is sent its own settlement, x2 x4 =
    8, itemised, besides the table's x2; at seat 0, x2; the landlord both."""
    from ddzspec.web.games import WebGame
    qq = load_rules(str(ROOT / "examples" / "qq-bidding.rules"))
    g = GameState.new(qq, seed=5, first=0)
    for a in (Action.call(0, False), Action.call(1), Action.rob(2, False), Action.double(1, 2),
              Action.double(2, 4), Action.double(0, 1)):
        g = g.apply(a)
    views = {seat: WebGame("g", "qq-bidding", g, seat, (1, 1, 1)).to_json()["view"]
             for seat in range(3)}
    assert all(v["multiplier"] == 2 for v in views.values())
    assert [(q["seat"], q["multiplier"], [f["kind"] for f in q["factors"]])
            for q in views[2]["stakes"]] == [(2, 8, ["double", "super"])]
    assert [(q["seat"], q["multiplier"]) for q in views[0]["stakes"]] == [(0, 2)]
    assert [(q["seat"], q["multiplier"]) for q in views[1]["stakes"]] == [(0, 2), (2, 8)]


# ----------------------------------------------------------------------------- laizi (issue 26)

def laizi_landlord(c: TestClient) -> dict[str, Any]:
    """Laizi, seed 1: seat 0 holds 34778889TTTQQKKA2 and the drawn wild rank is Q (two wild
    cards); it speaks first, bids 3, takes the talon 4 6 J and leads."""
    g = new_game(c, rules="laizi", seed=1)
    assert g["view"]["hand"] == "34778889TTTQQKKA2" and g["legal"]["kind"] == "bid"
    r = c.post(f"/api/games/{g['id']}/action", json={"kind": "bid", "value": 3})
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["view"]["landlord"] == 0 and g["legal"]["kind"] == "play"
    assert g["view"]["hand"] == "3446778889TTTJQQKKA2"
    return g


def test_a_laizi_deal_shows_the_wild_rank_and_marks_the_wild_cards(client: TestClient) -> None:
    g = new_game(client, rules="laizi", seed=1)
    assert g["wild"] == [{"rank": 9, "symbol": "Q"}] and g["view"]["wild"] == ["Q"]
    # every Q is wild, and only the Qs: 34778889TTT + QQ (wild) + KKA2
    marked = [c["symbol"] for c in g["hand_cards"] if c.get("wild")]
    assert marked == ["Q", "Q"] and len(g["hand_cards"]) == 17
    assert [c["symbol"] for c in g["view"]["unseen"] if c.get("wild")] == ["Q"]
    assert client.get(f"/api/games/{g['id']}?notation=fr").json()["wild"] == [
        {"rank": 9, "symbol": "D"}]  # the queen is the dame in French
    # the rules without wild cards send no wild rank and mark no card
    classic = new_game(client, seed=1)
    assert classic["wild"] == [] and not any("wild" in c for c in classic["hand_cards"])


def test_a_laizi_hint_lists_the_games_wild_actions_with_their_readings(
        client: TestClient) -> None:
    from ddzspec.cards import parse_cards
    from ddzspec.game.play import wild_actions
    g = laizi_landlord(client)
    legal = g["legal"]
    st = GameState.new(load_rules("laizi"), seed=1).apply(Action.bid(0, 3))
    assert [parse_cards(m).cards for m in legal["moves"]] == [a.cards for a in wild_actions(st)]
    said = dict(zip(legal["moves"], legal["readings"], strict=True))
    # hand-worked: the two wild Qs stand for two Ks beside the two natural Ks (a soft bomb);
    # a wild Q beside the 3 makes the pair 33; a Q led alone is itself
    assert said["QQKK"] == "QQ as KK · bomb KKKK (soft)"
    assert said["3Q"] == "Q as 3 · pair 33"
    assert said["Q"] == "Q as itself · single Q"
    assert said["3"] is None and said["TTT"] is None  # no wild card, no bomb: plain
    assert not legal["can_pass"]  # the landlord leads


def test_a_laizi_play_is_read_with_its_wild_cards_and_an_illegal_one_changes_nothing(
        tmp_path: Path) -> None:
    c = TestClient(create_app(data_dir=tmp_path), base_url="http://localhost")
    g = laizi_landlord(c)
    gid = g["id"]
    saved = (tmp_path / "web-games" / f"{gid}.json").read_text()
    # 3 4 Q: a wild Q makes no pair, trio or straight of three cards
    r = c.post(f"/api/games/{gid}/action", json={"kind": "play", "cards": "34Q"})
    assert r.status_code == 422 and r.json()["error"] == (
        "34Q is illegal: no reading: not a legal move, whatever rank (but a joker) each wild "
        "card stands for")
    after = c.get(f"/api/games/{gid}").json()
    assert after["view"] == g["view"] and after["log"] == g["log"]
    assert (tmp_path / "web-games" / f"{gid}.json").read_text() == saved
    # Q Q K K, led: read as the bomb KKKK (bomb comes before trio_single in the priority),
    # soft (natural and wild cards): x2 (laizi.rules: factor soft 2), base 3 x 1 -> x 2
    r = c.post(f"/api/games/{gid}/action", json={"kind": "play", "cards": "QQKK"})
    assert r.status_code == 200, r.text
    g = r.json()
    t = g["trick_cards"][0]
    assert t["seat"] == 0 and t["text"] == "QQKK"
    assert t["reading"] == "QQ as KK · bomb KKKK (soft)"
    assert [(x["symbol"], x.get("wild", False)) for x in t["cards"]] == [
        ("Q", True), ("Q", True), ("K", False), ("K", False)]
    assert g["log"][-1]["text"] == "plays QQKK"
    assert g["log"][-1]["reading"] == "QQ as KK · bomb KKKK (soft)"
    assert g["view"]["multiplier"] == 2 and g["view"]["factors"] == [
        {"kind": "soft_bomb", "times": 2, "seat": 0, "cards": "KK**"}]
    assert g["view"]["hand"] == "3446778889TTTJA2"
    fr = c.get(f"/api/games/{gid}?notation=fr").json()
    assert fr["log"][-1]["reading"] == "DD as RR · bomb RRRR (soft)"
    # a wild card typed as * is one of the wild rank held: none is left
    g = to_person(c, g)
    if g["view"]["phase"] != "over":
        r = c.post(f"/api/games/{gid}/action", json={"kind": "play", "cards": "3*"})
        assert r.status_code == 422 and "does not hold" in r.json()["error"]


def test_a_laizi_deal_saves_a_version_4_record_that_resumes_and_uploads(
        tmp_path: Path) -> None:
    c1 = TestClient(create_app(data_dir=tmp_path), base_url="http://localhost")
    g = new_game(c1, rules="laizi", seed=11, levels=[1, 2, 3])
    for _ in range(200):
        g = to_person(c1, g)
        if g["view"]["phase"] == "over":
            break
        legal = g["legal"]
        body: dict[str, Any] = {"kind": "pass"} if legal["can_pass"] else \
            {"kind": "play", "cards": legal["moves"][-1]} if legal["kind"] == "play" else \
            {"kind": legal["kind"], "value": legal["choices"][-1]}
        r = c1.post(f"/api/games/{g['id']}/action", json=body)
        assert r.status_code == 200, r.text
        g = r.json()
    assert g["view"]["phase"] == "over"
    # seed 11: seat 0 bids 3 and leads the last of its moves, four natural 10s: a hard bomb
    # (natural cards only), x4 (laizi.rules: factor hard 4)
    first_play = next(e for e in g["log"] if e["kind"] == "play")
    assert first_play == {"seat": 0, "kind": "play", "choice": None, "text": "plays TTTT",
                          "cards": "TTTT", "reading": "bomb 10 10 10 10 (hard)",
                          "as": None}  # reading strongest: none stated
    assert {"kind": "hard_bomb", "times": 4, "seat": 0, "cards": "TTTT"} in \
        g["view"]["result"]["factors"]
    d = c1.get(f"/api/games/{g['id']}/record")
    assert d.status_code == 200
    rec = Record.from_json(d.json())
    assert rec.version == 4 and d.json()["deal"]["wild"] == [["7"]]
    assert replay(rec).ok
    # restart: the readings come back from the autosave (the deal replayed)
    c2 = TestClient(create_app(data_dir=tmp_path), base_url="http://localhost")
    assert c2.get(f"/api/games/{g['id']}").json()["log"] == g["log"]
    up = c2.post("/api/records?seat=0&level=1", json=d.json())
    assert up.status_code == 201 and up.json()["log"] == g["log"]
    steps = c2.get(f"/api/games/{up.json()['id']}/replay").json()["steps"]
    first = len(rec.actions) - len(g["log"])
    assert [s["reading"] for s in steps[first:]] == [e["reading"] for e in g["log"]]


# ------------------------------------------------------------- laizi, reading declared (issue 26)

DECLARED = ROOT / "examples" / "laizi-declared.rules"


def declared_client(tmp_path: Path) -> TestClient:
    return TestClient(create_app([str(DECLARED)], data_dir=tmp_path), base_url="http://localhost")


def declared_landlord(c: TestClient) -> dict[str, Any]:
    """laizi-declared, seed 1 (the deal of laizi's seed 1): seat 0 bids 3 and leads with
    3446778889TTTJQQKKA2, the Qs wild."""
    g = new_game(c, rules="laizi-declared", seed=1)
    r = c.post(f"/api/games/{g['id']}/action", json={"kind": "bid", "value": 3})
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["view"]["hand"] == "3446778889TTTJQQKKA2" and g["wild"][0]["symbol"] == "Q"
    return g


#: 7 8 9 10 and a wild Q, led: the wild card extends the run below (6) or above (J), two
#: straights of five; hand-worked, as the page lists them (the higher body first)
STRAIGHTS = [{"as": "789TJ", "typed": "789T*=789TJ", "words": "Q as J · straight 7 8 9 10 J"},
             {"as": "6789T", "typed": "789T*=6789T", "words": "Q as 6 · straight 6 7 8 9 10"}]


def test_declared_a_play_with_several_readings_asks_which_and_changes_nothing(
        tmp_path: Path) -> None:
    c = declared_client(tmp_path)
    g = declared_landlord(c)
    gid = g["id"]
    saved = (tmp_path / "web-games" / f"{gid}.json").read_text()
    r = c.post(f"/api/games/{gid}/action", json={"kind": "play", "cards": "789TQ"})
    assert r.status_code == 422
    assert r.json() == {
        "error": "789T* has 2 readings here: say which (\"as\"): Q as J · straight 7 8 9 10 J (as "
                 "789TJ); Q as 6 · straight 6 7 8 9 10 (as 6789T)",
        "readings": STRAIGHTS}
    # a reading the cards cannot make: refused with the reason and the readings here
    r = c.post(f"/api/games/{gid}/action", json={"kind": "play", "cards": "789TQ",
                                                 "as": "89TJQ"})
    assert r.status_code == 422 and r.json()["readings"] == STRAIGHTS
    assert r.json()["error"].startswith(
        "789T* as 89TJQ is refused: the cards cannot make 89TJQ under the rules")
    assert r.json()["error"].endswith("Its readings here: Q as J · straight 7 8 9 10 J (as 789TJ); "
                                      "Q as 6 · straight 6 7 8 9 10 (as 6789T)")
    # "as" that is no cards, or empty
    assert c.post(f"/api/games/{gid}/action", json={"kind": "play", "cards": "789TQ",
                                                    "as": "78X"}).status_code == 400
    assert c.post(f"/api/games/{gid}/action", json={"kind": "play", "cards": "789TQ",
                                                    "as": ""}).status_code == 400
    after = c.get(f"/api/games/{gid}").json()
    assert after["view"] == g["view"] and after["log"] == g["log"]
    assert (tmp_path / "web-games" / f"{gid}.json").read_text() == saved
    # the reading stated: played as the straight 789TJ, said so in the trick and the log
    r = c.post(f"/api/games/{gid}/action", json={"kind": "play", "cards": "789TQ",
                                                 "as": "789TJ"})
    assert r.status_code == 200, r.text
    g = r.json()
    t = g["trick_cards"][0]
    assert (t["text"], t["reading"]) == ("789TQ", "Q as J · straight 7 8 9 10 J")
    assert g["log"][-1] == {"seat": 0, "kind": "play", "choice": None, "text": "plays 789TQ",
                            "cards": "789TQ", "reading": "Q as J · straight 7 8 9 10 J",
                            "as": "789TJ"}
    assert g["view"]["hand"] == "3446788TTJQKKA2"
    assert saved_record(tmp_path, gid).actions[-1].to_json() == {"seat": 0, "play": "789TQ",
                                                                  "as": "789TJ"}


def test_declared_readings_come_bomb_first_then_strongest_and_none_is_dropped(
        tmp_path: Path) -> None:
    c = declared_client(tmp_path)
    g = declared_landlord(c)
    r = c.post(f"/api/games/{g['id']}/action", json={"kind": "play", "cards": "888Q"})
    assert r.status_code == 422
    said = r.json()["readings"]
    # hand-worked: the wild Q as 8 makes the soft bomb 8888; as any other rank but a joker
    # (3 .. 2 without 8: 12 ranks) a trio with that single. Before: the bomb sat 6th, between
    # 888+7 and 888+9, below the fold of a phone's dialog
    assert said[0] == {"as": "8888", "typed": "888*=8888", "words": "Q as 8 · bomb 8888 (soft)"}
    assert [x["as"] for x in said[1:]] == ["888+" + k for k in "345679TJQKA2"]
    assert said[6]["words"] == "Q as 9 · trio single 888+9"


def test_declared_a_reading_typed_with_the_play_and_one_reading_plays_at_once(
        tmp_path: Path) -> None:
    c = declared_client(tmp_path)
    g = declared_landlord(c)
    # the typed form of the terminal seat: the play, =, what it makes
    r = c.post(f"/api/games/{g['id']}/action", json={"kind": "play", "cards": "789T*=6789T"})
    assert r.status_code == 200, r.text
    assert r.json()["trick_cards"][0]["reading"] == "Q as 6 · straight 6 7 8 9 10"
    g2 = declared_landlord(c)
    # stated twice is refused; 3 and a wild Q have one reading (the pair 33): played at once
    r = c.post(f"/api/games/{g2['id']}/action",
               json={"kind": "play", "cards": "789T*=6789T", "as": "6789T"})
    assert r.status_code == 400 and "stated twice" in r.json()["error"]
    r = c.post(f"/api/games/{g2['id']}/action", json={"kind": "play", "cards": "3Q"})
    assert r.status_code == 200, r.text
    assert r.json()["log"][-1]["reading"] == "Q as 3 · pair 33"
    assert r.json()["log"][-1]["as"] is None  # none stated


def test_declared_hints_are_the_games_play_reading_pairs_with_their_typed_form(
        tmp_path: Path) -> None:
    from ddzspec.cards import parse_cards
    from ddzspec.game.play import wild_actions
    c = declared_client(tmp_path)
    legal = declared_landlord(c)["legal"]
    st = GameState.new(load_rules(str(DECLARED)), seed=1).apply(Action.bid(0, 3))
    acts = wild_actions(st)
    assert len(legal["moves"]) == len(legal["as"]) == len(legal["typed"]) == len(acts)
    assert [(parse_cards(m).cards, parse_cards(x).cards) for m, x in
            zip(legal["moves"], legal["as"], strict=True)] == [(a.cards, a.declared)
                                                                 for a in acts]
    pairs = [(m, x, t, w) for m, x, t, w in zip(legal["moves"], legal["as"], legal["typed"],
                                                 legal["readings"], strict=True)
             if m == "789TQ"]
    assert [(x, t, w) for _, x, t, w in pairs] == [(s["as"], s["typed"], s["words"])
                                                   for s in STRAIGHTS[::-1]]  # lowest first
    assert ("3", "3", "3", None) in [(m, x, t, w) for m, x, t, w in zip(
        legal["moves"], legal["as"], legal["typed"], legal["readings"], strict=True)]
    # under laizi's reading strongest nothing is stated: no "as", and one is refused
    g = laizi_landlord(c)
    assert "as" not in g["legal"] and "typed" not in g["legal"]
    r = c.post(f"/api/games/{g['id']}/action", json={"kind": "play", "cards": "789TQ",
                                                     "as": "789TJ"})
    assert r.status_code == 400 and "only under wild rules with \"reading declared\"" in \
        r.json()["error"]
    assert c.post(f"/api/games/{g['id']}/action",
                  json={"kind": "play", "cards": "789T*=789TJ"}).status_code == 400


def test_declared_a_whole_deal_with_computers_keeps_the_readings_in_record_and_resume(
        tmp_path: Path) -> None:
    c1 = declared_client(tmp_path)
    g = new_game(c1, rules="laizi-declared", seed=1, levels=[1, 1, 2])
    stated = 0
    for _ in range(200):
        g = to_person(c1, g)
        if g["view"]["phase"] == "over":
            break
        legal = g["legal"]
        body: dict[str, Any] = {"kind": "pass"}
        if legal["kind"] != "play":
            body = {"kind": legal["kind"], "value": legal["choices"][-1]}
        elif legal["moves"]:  # the person's last hint, its reading stated
            body = {"kind": "play", "cards": legal["moves"][-1], "as": legal["as"][-1]}
            stated += 1
        r = c1.post(f"/api/games/{g['id']}/action", json=body)
        assert r.status_code == 200, r.text
        g = r.json()
    assert g["view"]["phase"] == "over" and stated
    mine = [e for e in g["log"] if e["kind"] == "play" and e["seat"] == 0]
    assert len(mine) == stated and all(e["as"] for e in mine)
    d = c1.get(f"/api/games/{g['id']}/record")
    rec = Record.from_json(d.json())
    assert replay(rec).ok
    assert len(rec.actions) == g["actions"] <= 60  # the log the page gets is whole
    assert [a.to_json().get("as") for a in rec.actions if a.to_json().get("seat") == 0
            and "play" in a.to_json()] == [parse_as(e["as"]) for e in mine]
    # the computers state the reading they play, as the game's players do
    theirs = [e for e in g["log"] if e["kind"] == "play" and e["seat"] != 0]
    assert theirs and all(e["as"] for e in theirs)
    # restart: the readings come back from the autosave; an upload keeps them too
    c2 = declared_client(tmp_path)
    assert c2.get(f"/api/games/{g['id']}").json()["log"] == g["log"]
    up = c2.post("/api/records?seat=0&level=1", json=d.json())
    assert up.status_code == 201 and up.json()["log"] == g["log"]


def parse_as(text: str) -> str:
    """A reading as the page writes it (``888+4``) in the record's cards order (``4888``)."""
    from ddzspec.cards import parse_cards
    return parse_cards(text).cards.format()
