"""A polite API: CORS on ``/v1/*`` and a per-client rate limit there (Flask-Limiter).

**The limit.** ``RULINGS_RATE_LIMIT`` (default 10/second) with a burst of
``RULINGS_RATE_LIMIT_BURST`` (default twice the rate: 20) is enforced as one *moving window*
of ``burst`` requests over ``burst / rate`` seconds: 20 requests in any 2 seconds. A client may
send all 20 at once and is held to 10/s on average; the 21st waits until the oldest of its last
20 requests is 2 s old (``Retry-After`` says how long). The ``limits`` library has no token
bucket; its fixed window lets up to twice the limit through across a window edge, and two
limits ("20 per 2 seconds" plus "10 per second") would cap every second at 10, which is no
burst at all. The moving window is exact, at the cost of keeping the last ``burst`` timestamps
per client (20 here).

**Who is limited.** Every client address (``RULINGS_PROXY_HOPS`` trusted proxies skipped) on
``/v1/*`` only: ``/healthz``, ``/metrics``, the page and the docs are not. Exempt: a request
whose ``X-API-Key`` equals ``RULINGS_API_KEY`` (the Discord bot speaks for many players) and the
addresses in ``RULINGS_RATE_LIMIT_EXEMPT`` (default loopback). Discord's signed requests to
``/discord/interactions`` are never limited: the signature already says they are Discord's, and
Discord retries a refused interaction, so a 429 would only multiply them.

**Where the counts live.** ``memory://`` keeps them in each gunicorn worker: with N workers a
client can get up to N times the limit. A Redis URL (``RULINGS_RATE_LIMIT_STORAGE``) shares
them between every worker and replica. If Redis is unreachable, requests are served (counted in
memory meanwhile) rather than refused: the limit is politeness, not security.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import math
import time

from flask import Flask, jsonify, request

from service.http.metrics import INTERNAL
from service.settings import Settings, SettingsError

log = logging.getLogger(__name__)

LIMITED_PREFIX = "/v1/"


def install_cors(app: Flask, settings: Settings) -> None:
    """CORS headers on /v1/* for the configured origins (default any origin, GET)."""
    origins = settings.cors_origin_list
    if not origins:
        return
    from flask_cors import CORS

    methods = sorted({*settings.cors_method_list, "HEAD", "OPTIONS"})
    # No credentials: the API has no cookies. Retry-After is exposed so a page can back off.
    anyone = "*" in origins
    CORS(
        app,
        resources={r"/v1/*": {"origins": "*" if anyone else origins}},
        send_wildcard=anyone,
        methods=methods,
        expose_headers=["Retry-After"],
        max_age=600,
        supports_credentials=False,
    )


def install_rate_limit(app: Flask, settings: Settings):
    """The per-client limit on /v1/* (None when RULINGS_RATE_LIMIT=off); refused storage URLs
    are one SettingsError line at start."""
    if settings.proxy_hops:
        from werkzeug.middleware.proxy_fix import ProxyFix

        # Flask's documented way to wrap the app in middleware; its types declare a method.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=settings.proxy_hops, x_proto=settings.proxy_hops
        )
    window = settings.burst_window
    if window is None:
        return None
    from flask_limiter import Limiter, RequestLimit
    from flask_limiter.errors import RateLimitExceeded
    from limits.errors import ConfigurationError
    from limits.storage import storage_from_string

    try:  # the storage's own check (scheme, its client library) before serving
        storage_from_string(settings.rate_limit_storage)
    except ConfigurationError as exc:
        raise SettingsError(
            f"RULINGS_RATE_LIMIT_STORAGE={settings.rate_limit_storage!r}: {exc}".splitlines()[0]
        ) from None
    burst, seconds = window
    api_key = settings.secret("api_key")
    networks = settings.exempt_networks

    def exempt() -> bool:
        if not request.path.startswith(LIMITED_PREFIX) or request.method == "OPTIONS":
            return True  # only /v1/*; a CORS preflight is the browser's, not the client's
        if request.environ.get(INTERNAL):
            return True  # the warm-up question the service asks itself before the fork
        sent = request.headers.get("X-API-Key")
        if api_key and sent and hmac.compare_digest(sent.encode(), api_key.encode()):
            return True
        return _address_in(request.remote_addr, networks)

    def refused(limit: RequestLimit):
        # When the oldest request of the window leaves it (reset_at rounds up a further second).
        wait = max(1, math.ceil(limit.window.reset_time - time.time()))
        response = jsonify(
            {
                "error": {
                    "code": "rate_limited",
                    "message": f"too many requests: at most {burst} in {seconds} s per client; retry in {wait} s",
                }
            }
        )
        response.status_code = 429
        response.headers["Retry-After"] = str(wait)
        return response

    limiter = Limiter(
        key_func=lambda: request.remote_addr or "unknown",
        app=app,
        application_limits=[f"{burst} per {seconds} seconds"],
        strategy="moving-window",
        storage_uri=settings.rate_limit_storage,
        headers_enabled=False,
        on_breach=refused,
        swallow_errors=True,
        in_memory_fallback_enabled=True,
        key_prefix="rulings",
    )
    limiter.request_filter(exempt)

    @app.errorhandler(RateLimitExceeded)
    def _limited(exc: RateLimitExceeded):
        # The response built by `refused`; app.py's HTTPException handler would say 429 plainly.
        return exc.get_response()

    app.extensions["rulings_limiter"] = limiter
    return limiter


def _address_in(address: str | None, networks: list) -> bool:
    if not address or not networks:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if ip.version == 6 and ip.ipv4_mapped is not None:  # ::ffff:127.0.0.1 is 127.0.0.1
        ip = ip.ipv4_mapped
    return any(ip in net for net in networks if net.version == ip.version)
