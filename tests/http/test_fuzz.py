"""Property-based fuzzing of the HTTP API.

* schemathesis generates requests for every operation in /openapi.json (valid and invalid ones)
  and runs them against the Flask app through WSGI: no 5xx, responses conform to the documented
  schema, and every 4xx body has the documented error shape.
* hypothesis posts arbitrary JSON to the POST endpoints and arbitrary query strings to the GET
  ones: never a 500, always a JSON body (an error of the documented shape when not 200).
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from service.http.app import create_app

pytestmark = pytest.mark.slow

FUZZ = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
    ],
)


def assert_error_shape(status: int, body) -> None:
    assert isinstance(body, dict) and set(body) == {"error"}, f"{status}: {body!r}"
    err = body["error"]
    assert isinstance(err, dict) and isinstance(err.get("code"), str) and err["code"], body
    assert isinstance(err.get("message"), str) and err["message"], body


@schemathesis.check
def error_has_documented_shape(ctx, response, case):
    if 400 <= response.status_code < 500:
        assert (
            response.headers.get("content-type", [""])[0].startswith("application/json")
            if isinstance(response.headers.get("content-type"), list)
            else str(response.headers.get("content-type", "")).startswith("application/json")
        ), f"{response.status_code} is not JSON"
        assert_error_shape(response.status_code, response.json())
    return None


# The schema is loaded at import from an app whose engine is attached later (the engine is only
# built on the first request that needs it): schemathesis' lazy `from_fixture` loader does not
# work with this pytest version ('Function' object has no attribute '_nodeid').

_fuzz_app = create_app({"TESTING": True})
schema = schemathesis.openapi.from_wsgi("/openapi.json", _fuzz_app)


@pytest.fixture()
def fuzz_app(engine):
    _fuzz_app.extensions["rulings_engine"] = engine  # the session's engine: one model in memory
    return _fuzz_app


@schema.parametrize()
@FUZZ
def test_every_operation(case, fuzz_app):
    case.call_and_validate(
        checks=[
            not_a_server_error,
            response_schema_conformance,
            content_type_conformance,
            error_has_documented_shape,
        ]
    )


# -- random JSON and query strings --------------------------------------------------------
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
# Bodies that look like requests: the real field names with values of any type, plus noise.
ASK_FIELDS = ["question", "game", "lang", "k"]
CHECK_FIELDS = [
    "attack",
    "modifier",
    "modifiers",
    "character",
    "monster",
    "initiative",
    "cards",
    "advantage",
    "disadvantage",
    "conditions",
    "shield",
    "pierce",
    "level",
    "hp",
    "effects",
    "items",
    "hand",
    "discard",
    "game",
    "type",
    "name",
]


def bodies(fields: list[str]):
    near = st.dictionaries(st.sampled_from(fields), json_values, max_size=len(fields))
    return near | json_values


def check_json_response(resp) -> None:
    assert resp.status_code < 500, (resp.status_code, resp.get_data(as_text=True)[:500])
    assert resp.mimetype == "application/json", (resp.status_code, resp.mimetype)
    body = json.loads(resp.get_data(as_text=True))
    if resp.status_code != 200:
        assert_error_shape(resp.status_code, body)


@FUZZ
@given(body=bodies(ASK_FIELDS))
def test_post_ask_random_json(client, body):
    check_json_response(client.post("/v1/ask", json=body))


@FUZZ
@given(
    name=st.sampled_from(["damage", "initiative", "advantage", "exhaustion", "monster"])
    | st.text(
        alphabet=st.characters(codec="ascii", categories=("L", "N")), min_size=1, max_size=12
    ),
    body=bodies(CHECK_FIELDS),
)
def test_post_check_random_json(client, name, body):
    check_json_response(client.post(f"/v1/check/{name}", json=body))


@FUZZ
@given(
    name=st.sampled_from(["damage", "initiative", "advantage", "exhaustion", "monster"]),
    raw=st.binary(max_size=200) | st.text(max_size=200).map(str.encode),
)
def test_post_check_raw_bytes(client, name, raw):
    check_json_response(client.post(f"/v1/check/{name}", data=raw, content_type="application/json"))


@pytest.fixture(scope="module")
def check_examples():
    from checker import CHECKS, check_module

    return {name: check_module(name).EXAMPLE for name in CHECKS}


@FUZZ
@given(data=st.data())
def test_post_check_mutated_examples(client, check_examples, data):
    """Valid examples with one field replaced by a value of any type: still never a 500."""
    name = data.draw(st.sampled_from(sorted(check_examples)))
    body = json.loads(json.dumps(check_examples[name]))
    if isinstance(body, dict) and body:
        key = data.draw(st.sampled_from(sorted(body)))
        body[key] = data.draw(json_values)
    check_json_response(client.post(f"/v1/check/{name}", json=body))


query_values = (
    st.text(max_size=30)
    | st.integers(-5, 1000).map(str)
    | st.sampled_from(
        [
            "",
            " ",
            "0",
            "-1",
            "11",
            "1e3",
            "FH",
            "gloomhaven",
            "en",
            "xx",
            "erratum",
            "item 225",
            "null",
        ]
    )
)
GET_PARAMS = {
    "/v1/ask": ["q", "game", "lang", "k"],
    "/v1/rulings": ["card", "game", "kind", "lang", "limit"],
    "/v1/cards": [],
    "/v1/games": [],
    "/healthz": [],
}


@FUZZ
@given(path=st.sampled_from(sorted(GET_PARAMS)), data=st.data())
def test_get_random_query_strings(client, path, data):
    names = GET_PARAMS[path] + ["x", "q[]"]
    params = data.draw(st.lists(st.tuples(st.sampled_from(names), query_values), max_size=5))
    check_json_response(client.get(f"{path}?{urlencode(params)}"))


@FUZZ
@given(record_id=st.text(max_size=40), lang=st.none() | query_values)
def test_get_ruling_random_ids(client, record_id, lang):
    from urllib.parse import quote

    url = f"/v1/rulings/{quote(record_id, safe='')}" + (
        f"?{urlencode({'lang': lang})}" if lang is not None else ""
    )
    resp = client.get(url)
    assert resp.status_code < 500, (url, resp.status_code)
    assert resp.mimetype == "application/json"
