"""A polite, observable service (issue 13, items 3-4): CORS on /v1/*, the per-client rate limit
(429 with the JSON error and Retry-After; exemptions) and /metrics in Prometheus text format.
(Item 5, the Dockerfile and compose.yaml: tests/service/test_deployment.py; the bot's API key:
tests/discord/test_bot.py.)

The plumbing runs on the fast app (fake embedder); the "Done when" lines run against the real
server: 120 simultaneous requests from one client, then its /metrics.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from service.settings import Settings

ORIGIN = "https://companion.example"
CLIENT = {"REMOTE_ADDR": "203.0.113.7"}  # a client that is not loopback (documentation range)


@pytest.fixture()
def make_app(fake_engine):
    """An app over the fake engine with these settings (by environment variable name)."""
    from service.http.app import create_app

    def make(**env: str):
        app = create_app({"TESTING": True, "SETTINGS": Settings.load(**env)})
        app.extensions["rulings_engine"] = fake_engine
        return app

    return make


def sample(text: str, name: str, **labels: str) -> float:
    """One sample's value in Prometheus text (0 when the series is absent)."""
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return s.value
    return 0.0


# -- CORS -----------------------------------------------------------------------------------


def test_a_browser_on_another_origin_may_read_the_api(make_app):
    client = make_app().test_client()
    res = client.get("/v1/games", headers={"Origin": ORIGIN})
    assert res.status_code == 200 and res.headers["Access-Control-Allow-Origin"] == "*"
    assert "Retry-After" in res.headers["Access-Control-Expose-Headers"]
    # By default GET only: a cross-origin JSON POST's preflight gets no permission for POST.
    pre = client.options(
        "/v1/ask",
        headers={
            "Origin": ORIGIN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert "POST" not in pre.headers.get("Access-Control-Allow-Methods", "")
    # Only /v1/*: the page and the health check carry no CORS headers.
    assert (
        "Access-Control-Allow-Origin"
        not in client.get("/healthz", headers={"Origin": ORIGIN}).headers
    )


def test_cors_origins_and_methods_are_settings(make_app):
    client = make_app(
        RULINGS_CORS_ORIGINS="https://a.example, https://b.example", RULINGS_CORS_METHODS="GET,POST"
    ).test_client()
    pre = client.options(
        "/v1/ask",
        headers={
            "Origin": "https://b.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert pre.headers["Access-Control-Allow-Origin"] == "https://b.example"
    assert "POST" in pre.headers["Access-Control-Allow-Methods"]
    other = client.get("/v1/games", headers={"Origin": "https://evil.example"})
    assert other.status_code == 200 and "Access-Control-Allow-Origin" not in other.headers
    off = (
        make_app(RULINGS_CORS_ORIGINS="none")
        .test_client()
        .get("/v1/games", headers={"Origin": ORIGIN})
    )
    assert "Access-Control-Allow-Origin" not in off.headers


# -- the rate limit ---------------------------------------------------------------------------


def flood(
    client, n: int, path: str = "/v1/games", environ_base: dict | None = None, **kwargs
) -> list:
    """`n` requests in a row from one client (by default CLIENT, not loopback)."""
    return [client.get(path, environ_base=environ_base or CLIENT, **kwargs) for _ in range(n)]


def test_a_client_gets_its_burst_then_429_with_the_json_error_and_retry_after(make_app):
    client = make_app(RULINGS_RATE_LIMIT_EXEMPT="none").test_client()
    answers = flood(client, 25)
    codes = [r.status_code for r in answers]
    assert codes[:20] == [200] * 20 and codes[20:] == [429] * 5  # the burst of 20, then refused
    refused = answers[-1]
    assert refused.headers["Content-Type"].startswith("application/json")
    error = refused.get_json()["error"]
    assert error["code"] == "rate_limited" and "20 in 2 s" in error["message"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 2  # the 2 s window frees a slot
    # Another client is not affected; the health check and the metrics are never limited.
    assert client.get("/v1/games", environ_base={"REMOTE_ADDR": "198.51.100.9"}).status_code == 200
    assert client.get("/healthz", environ_base=CLIENT).status_code == 200
    assert client.get("/metrics", environ_base=CLIENT).status_code == 200
    # A preflight is the browser's own request: not counted, not refused.
    assert (
        client.options(
            "/v1/games",
            environ_base=CLIENT,
            headers={"Origin": ORIGIN, "Access-Control-Request-Method": "GET"},
        ).status_code
        == 200
    )


def test_the_limit_is_a_setting(make_app):
    client = make_app(
        RULINGS_RATE_LIMIT="2/second",
        RULINGS_RATE_LIMIT_BURST="3",
        RULINGS_RATE_LIMIT_EXEMPT="none",
    ).test_client()
    codes = [r.status_code for r in flood(client, 4)]
    assert codes == [200, 200, 200, 429]  # 3 per 2 seconds
    off = make_app(RULINGS_RATE_LIMIT="off", RULINGS_RATE_LIMIT_EXEMPT="none").test_client()
    assert {r.status_code for r in flood(off, 40)} == {200}


def test_the_api_key_and_the_exempt_addresses_are_not_limited(make_app):
    client = make_app(
        RULINGS_RATE_LIMIT_EXEMPT="10.0.0.0/8", RULINGS_API_KEY="s3cret"
    ).test_client()
    assert {r.status_code for r in flood(client, 30, headers={"X-API-Key": "s3cret"})} == {200}
    assert {r.status_code for r in flood(client, 30, environ_base={"REMOTE_ADDR": "10.1.2.3"})} == {
        200
    }
    # A wrong key is no key; loopback is limited once the exempt list is replaced.
    assert 429 in {r.status_code for r in flood(client, 25, headers={"X-API-Key": "guess"})}
    assert 429 in {
        r.status_code for r in flood(client, 25, environ_base={"REMOTE_ADDR": "127.0.0.1"})
    }
    # The default exempts loopback (the page's own server-side calls, a bot on the same host).
    local = make_app().test_client()
    assert {r.status_code for r in flood(local, 30, environ_base={"REMOTE_ADDR": "127.0.0.1"})} == {
        200
    }


def test_behind_a_proxy_each_forwarded_client_has_its_own_limit(make_app):
    client = make_app(RULINGS_PROXY_HOPS="1").test_client()  # the proxy connects from loopback
    proxy = {"REMOTE_ADDR": "127.0.0.1"}
    first = flood(client, 21, environ_base=proxy, headers={"X-Forwarded-For": "203.0.113.50"})
    assert first[-1].status_code == 429
    other = client.get("/v1/games", environ_base=proxy, headers={"X-Forwarded-For": "203.0.113.51"})
    assert other.status_code == 200


def test_discord_interactions_are_never_limited(make_app):
    # Discord retries what is refused: its signed requests are not counted (they fail the
    # signature here, 401, but never 429).
    client = make_app(RULINGS_RATE_LIMIT_EXEMPT="none", DISCORD_PUBLIC_KEY="ab" * 32).test_client()
    codes = {
        client.post("/discord/interactions", data=b"{}", environ_base=CLIENT).status_code
        for _ in range(30)
    }
    assert codes == {401}


# -- /metrics ---------------------------------------------------------------------------------


def test_metrics_count_requests_by_route_and_status(make_app):
    client = make_app().test_client()
    before = client.get("/metrics").get_data(as_text=True)
    client.get("/v1/rulings/fh-clar-10")
    client.get("/v1/rulings/fh-clar-11")
    client.get("/v1/rulings/no-such-ruling")
    client.get("/no/such/route")
    res = client.get("/metrics")
    assert res.status_code == 200 and res.headers["Content-Type"].startswith("text/plain; version=")
    after = res.get_data(as_text=True)
    route = "/v1/rulings/<path:record_id>"  # the URL rule: one series for every id
    delta = lambda *a, **k: sample(after, *a, **k) - sample(before, *a, **k)  # noqa: E731
    assert delta("rulings_http_requests_total", route=route, status="200") == 2
    assert delta("rulings_http_requests_total", route=route, status="404") == 1
    assert delta("rulings_http_requests_total", route="<unmatched>", status="404") == 1
    assert delta("rulings_http_request_duration_seconds_count", route=route) == 3
    assert "/no/such/route" not in after and "fh-clar-10" not in after
    # The index in use: its size and build time.
    assert (
        sample(after, "rulings_index_passages") > 0 and sample(after, "rulings_index_records") == 70
    )
    assert sample(after, "rulings_index_built_timestamp_seconds") > 1.7e9


def test_metrics_count_asks_and_computed_answers(make_app):
    from service.http.metrics import observe_ask

    app = make_app()
    client = app.test_client()
    before = client.get("/metrics").get_data(as_text=True)
    client.get("/v1/ask", query_string={"q": "Do I apply Shield before Ward?"})
    client.post("/v1/ask", json={"question": "Root: can a Vagabond move twice?"})
    # The rules checker computes this one from the question's own numbers.
    computed = client.get(
        "/v1/ask",
        query_string={
            "q": "Frosthaven: I have Shield 2 and Ward and take an attack of 8, how much damage?"
        },
    ).get_json()
    assert computed["computed"]["check"] == "damage"
    with app.test_request_context("/v1/ask"):  # an answer with nothing computed counts no check
        observe_ask({"declined": False, "computed": None})
    after = client.get("/metrics").get_data(as_text=True)
    asks = sum(
        sample(after, "rulings_asks_total", outcome=o)
        - sample(before, "rulings_asks_total", outcome=o)
        for o in ("answered", "declined")
    )
    assert asks == 4
    assert (
        sample(after, "rulings_asks_total", outcome="declined")
        - sample(before, "rulings_asks_total", outcome="declined")
        >= 1
    )  # the Root question
    assert (
        sample(after, "rulings_computed_answers_total", check="damage")
        - sample(before, "rulings_computed_answers_total", check="damage")
        == 1
    )


# -- the real server: the "Done when" -------------------------------------------------


@pytest.mark.slow
def test_a_flood_from_one_client_gets_429s_and_metrics_add_up_over_workers(index_dir):
    from tests.conftest import serving

    with serving(
        {
            "RULINGS_INDEX_DIR": str(index_dir),
            "RULINGS_RATE_LIMIT_EXEMPT": "none",
            "WEB_WORKERS": "2",
        }
    ) as url:
        answers = flood_at_once(url, 120)  # 120 requests at once, from one address
        codes = [r.status_code for r in answers]
        assert not [c for c in codes if c >= 500], codes
        assert set(codes) == {200, 429} and codes.count(200) >= 20, codes
        refused = next(r for r in answers if r.status_code == 429)
        assert refused.json()["error"]["code"] == "rate_limited"
        assert int(refused.headers["Retry-After"]) >= 1
        assert all(r.headers["Access-Control-Allow-Origin"] == "*" for r in answers)
        # /metrics: Prometheus text, summed over both workers (multiprocess mode).
        res = httpx.get(f"{url}/metrics", timeout=30)
        assert res.status_code == 200 and res.headers["content-type"].startswith(
            "text/plain; version="
        )
        text = res.text
        counted = {
            s: sample(text, "rulings_http_requests_total", route="/v1/rulings", status=s)
            for s in ("200", "429")
        }
        assert counted == {"200": codes.count(200), "429": codes.count(429)}
        assert sample(text, "rulings_index_records") == 70


@pytest.fixture()
def redis_url(tmp_path):
    """A real Redis (Debian's redis-server, installed on first use) on a free loopback port."""
    import os
    import time

    from tests.conftest import free_port

    pytest.importorskip("redis", reason="the redis extra is not installed")
    server = shutil.which("redis-server")
    if server is None:
        try:
            subprocess.run(
                ["apt-get", "install", "-y", "-qq", "redis-server"],
                check=True,
                capture_output=True,
                timeout=600,
                env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"),
            )
        except (OSError, subprocess.SubprocessError) as exc:
            pytest.skip(f"redis-server is not installed and cannot be installed here: {exc}")
        server = shutil.which("redis-server") or pytest.skip("apt-get did not provide redis-server")
    port = free_port()
    proc = subprocess.Popen(
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
    )
    import redis

    client = redis.Redis(port=port)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.1)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def flood_at_once(
    url: str, n: int, path: str = "/v1/rulings?card=item+225"
) -> list[httpx.Response]:
    """`n` requests released together from one address (threads behind a barrier)."""
    start = threading.Barrier(n)

    def one(_: int) -> httpx.Response:
        with httpx.Client(timeout=60) as http:
            start.wait()
            return http.get(f"{url}{path}", headers={"Origin": ORIGIN})

    with ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(one, range(n)))


@pytest.mark.slow
def test_with_redis_the_workers_share_one_limit(index_dir, redis_url):
    """Memory storage counts per worker (2 workers: up to twice the burst); Redis holds one count.
    A 2-minute window (10/minute, burst 20) so that the figure cannot depend on speed."""
    from tests.conftest import serving

    with serving(
        {
            "RULINGS_INDEX_DIR": str(index_dir),
            "RULINGS_RATE_LIMIT_EXEMPT": "none",
            "WEB_WORKERS": "2",
            "RULINGS_RATE_LIMIT": "10/minute",
            "RULINGS_RATE_LIMIT_BURST": "20",
            "RULINGS_RATE_LIMIT_STORAGE": redis_url,
        }
    ) as url:
        codes = [r.status_code for r in flood_at_once(url, 60)]
        assert codes.count(200) == 20 and codes.count(429) == 40, codes


def test_the_openapi_document_names_the_429(make_app):
    doc = make_app().test_client().get("/openapi.json").get_json()
    refused = doc["paths"]["/v1/ask"]["get"]["responses"]["429"]
    assert "Retry-After" in refused["headers"]
    assert "429" not in doc["paths"]["/healthz"]["get"]["responses"]  # never limited
