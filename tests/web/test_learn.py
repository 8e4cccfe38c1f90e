"""The web table's Learn routes through Starlette's TestClient: a page per rules
file (shapes with examples, restrictions with the readings they rule out), the diff of two
variants in words, and explain's diagnosis of moves that match no shape."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from ddzspec.web import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    return TestClient(create_app(data_dir=tmp_path_factory.mktemp("data")),
                      base_url="http://localhost")


def test_learn_rules_page_and_diff(client: TestClient) -> None:
    d = client.get("/api/learn/rules/classic").json()
    shapes = {s["name"]: s for s in d["shapes"]}
    assert "bomb" in shapes and "3333" in shapes["bomb"]["examples"]
    rs = {r["name"]: r for r in d["restrictions"]}
    assert rs["quad_block"]["count"] > 0 and rs["quad_block"]["ruled_out"]
    lines = client.get("/api/learn/diff?a=classic&b=kawu").json()["lines"]
    assert lines[0].startswith("restrictions: kawu adds distinct_kicker_ranks")
    same = client.get("/api/learn/diff?a=classic&b=classic").json()["lines"]
    assert same == ["Every move reads the same under classic and classic."]
    fr = client.get("/api/learn/rules/classic?notation=fr").json()
    straight = next(s for s in fr["shapes"] if s["name"] == "straight")
    assert straight["examples"] == ["34567", "6789TVD", "3456789TVDRA"]
    r = client.get("/api/learn/rules/..%2Fetc")
    assert r.status_code in (400, 404)
    r = client.get("/api/learn/diff?a=classic&b=/etc/passwd")
    assert r.status_code == 400 and "not offered" in r.json()["error"]


@pytest.mark.parametrize(("move", "words"), [
    ("3456", "a straight needs at least 5 cards"),
    ("JQKA2", "2 is not a chain rank"),
    ("3344", "a pair straight needs at least 3 pairs"),
    ("333444555777", "the trios are not consecutive"),
])
def test_explain_diagnoses_moves_that_match_no_shape(client: TestClient, move: str,
                                                     words: str) -> None:
    d = client.post("/api/explain", json={"move": move}).json()
    assert d["legal"] is False and d["move"] == move
    assert any(words in ln for ln in d["lines"]), d["lines"]
    assert d["nearest"] and d["readings"] == []
