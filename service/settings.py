"""Every environment variable the project reads, as one typed object (pydantic-settings).

``Settings.load()`` reads them afresh (or refuses a bad value with one line naming it); the
modules read this object, never ``os.environ``. The embedder's own settings are
``indexer.settings.EmbedderSettings``, which this extends (the indexer may not import the
service). The README's settings table is made from this model: ``python -m service.settings``
prints it, and a test fails when the README's copy differs.
"""

from __future__ import annotations

import ipaddress
import math
import sys
from pathlib import Path
from typing import Any

from pydantic import Field, SecretStr, field_validator, model_validator

from indexer.model.settings import EmbedderSettings, SettingsError
from indexer.paths import DEFAULT_ARCHIVE, DEFAULT_INDEX

__all__ = ["Settings", "SettingsError", "settings_table"]

DEFAULT_API_URL = "http://127.0.0.1:8000"
DEFAULT_BOT_DB = Path("build") / "bot.sqlite3"
DEFAULT_ASK_LOG = Path("build") / "asks.sqlite3"
LOOPBACK = "127.0.0.1,::1"
NONE = "none"  # the word that empties a list setting
OFF = "off"


def _words(value: str) -> list[str]:
    return [w for w in value.replace(" ", ",").split(",") if w]


class Settings(EmbedderSettings):
    """The service's settings: serving, the polite API, the page, the Discord bot."""

    archive_dir: Path = Field(
        DEFAULT_ARCHIVE,
        alias="RULINGS_ARCHIVE_DIR",
        json_schema_extra={"shown_default": "`rulings/`"},
        description="the archive folder (`--archive`)",
    )
    index_dir: Path = Field(
        DEFAULT_INDEX,
        alias="RULINGS_INDEX_DIR",
        json_schema_extra={"shown_default": "`index/`"},
        description="the index folder (`--index`)",
    )
    port: int = Field(
        8000,
        ge=1,
        le=65535,
        alias="PORT",
        description="`make run` / `rulings serve` port (always 127.0.0.1 unless `--host`)",
    )
    web_threads: int = Field(
        4, ge=1, alias="WEB_THREADS", description="gunicorn threads per worker"
    )
    access_log: str = Field(
        "-", alias="ACCESS_LOG", description="gunicorn access log file (`-`: stdout, empty: none)"
    )
    proxy_hops: int = Field(
        0,
        ge=0,
        alias="RULINGS_PROXY_HOPS",
        description="reverse proxies / load balancers in front of the service whose "
        "`X-Forwarded-For` is trusted: the client's address (for the rate limit) is "
        "read from it. 0: the connecting address is the client",
    )
    rate_limit: str = Field(
        "10/second",
        alias="RULINGS_RATE_LIMIT",
        description="each client's sustained rate on `/v1/*` (`N/second`, `N/minute`, ...); `off` disables the limit",
    )
    rate_limit_burst: int | None = Field(
        None,
        ge=1,
        alias="RULINGS_RATE_LIMIT_BURST",
        json_schema_extra={"shown_default": "2 x the rate"},
        description='requests a client may send at once (at least the rate\'s count); see "A polite API"',
    )
    rate_limit_storage: str = Field(
        "memory://",
        alias="RULINGS_RATE_LIMIT_STORAGE",
        description="where the counts are kept: `memory://` (each worker its own) or a Redis URL "
        "(`redis://redis:6379/0`), shared by every worker and replica",
    )
    rate_limit_exempt: str = Field(
        LOOPBACK,
        alias="RULINGS_RATE_LIMIT_EXEMPT",
        json_schema_extra={"shown_default": f"`{LOOPBACK}`"},
        description="client addresses or networks (`10.0.0.0/8`) never limited, comma-separated; `none`: nobody",
    )
    api_key: SecretStr | None = Field(
        None,
        alias="RULINGS_API_KEY",
        description="a client sending it as `X-API-Key` is not rate-limited (the Discord bot sends "
        "it); also the key the bot sends",
    )
    cors_origins: str = Field(
        "*",
        alias="RULINGS_CORS_ORIGINS",
        description="origins a browser may call `/v1/*` from, comma-separated (`*`: any; `none`: no CORS headers)",
    )
    cors_methods: str = Field(
        "GET",
        alias="RULINGS_CORS_METHODS",
        description="methods allowed from those origins (`GET,POST` for the POST routes too)",
    )
    public_url: str | None = Field(
        None,
        alias="RULINGS_PUBLIC_URL",
        description="the page's public base URL, for permalinks in the bot's answers",
    )
    api_url: str = Field(
        DEFAULT_API_URL,
        alias="RULINGS_API_URL",
        description="the API the gateway bot calls (`--api-url`)",
    )
    discord_token: SecretStr | None = Field(
        None,
        alias="DISCORD_TOKEN",
        description="the bot's token (`rulings discord`, `rulings discord register`); keep it out "
        "of every file in the repository",
    )
    discord_public_key: str | None = Field(
        None,
        alias="DISCORD_PUBLIC_KEY",
        description="the application's public key: turns on `POST /discord/interactions`",
    )
    discord_application_id: str | None = Field(
        None,
        alias="DISCORD_APPLICATION_ID",
        description="the application's id for `rulings discord register` (asked of Discord when unset)",
    )
    bot_db: Path = Field(
        DEFAULT_BOT_DB,
        alias="RULINGS_BOT_DB",
        description="the bot's per-server settings (default game), SQLite",
    )
    ask_log: str = Field(
        str(DEFAULT_ASK_LOG),
        alias="RULINGS_LOG",
        json_schema_extra={"shown_default": f"`{DEFAULT_ASK_LOG}`"},
        description='the question log (see "What the service keeps"): a SQLite file, or a '
        "`postgresql://user:pass@host/db` URL shared by every worker and replica; `off` keeps nothing",
    )
    ask_log_days: int = Field(
        90, ge=1, alias="RULINGS_LOG_DAYS", description="days an ask is kept in the question log"
    )
    ask_log_key: SecretStr | None = Field(
        None,
        alias="RULINGS_LOG_KEY",
        json_schema_extra={"shown_default": "a random key kept in the log"},
        description="the key of the hash that counts asks per Discord server without naming it",
    )
    metrics_dir: Path | None = Field(
        None,
        alias="PROMETHEUS_MULTIPROC_DIR",
        json_schema_extra={"shown_default": "a temp folder"},
        description="where gunicorn's workers keep their `/metrics` counts (prometheus_client's "
        "multiprocess mode); `rulings serve` makes a temp folder when unset",
    )

    @field_validator("rate_limit")
    @classmethod
    def _rate(cls, value: str) -> str:
        if value.lower() == OFF:
            return OFF
        from limits import parse

        try:
            parse(value)
        except ValueError:
            raise ValueError(
                "is not a rate such as `10/second` or `600/minute` (or `off`)"
            ) from None
        return value

    @field_validator("ask_log")
    @classmethod
    def _ask_log(cls, value: str) -> str:
        if value.strip().lower() == OFF:
            return OFF
        scheme = value.split("://", 1)[0].lower() if "://" in value else "sqlite"
        if scheme.split("+", 1)[0] not in ("sqlite", "postgresql", "postgres"):
            raise ValueError("is not a file path, `sqlite:///PATH`, `postgresql://...` or `off`")
        return value

    @field_validator("rate_limit_exempt")
    @classmethod
    def _exempt(cls, value: str) -> str:
        if value.lower() == NONE:
            return NONE
        for word in _words(value):
            try:
                ipaddress.ip_network(word, strict=False)
            except ValueError:
                raise ValueError(
                    f"lists {word!r}, which is not an address or network (or say `none`)"
                ) from None
        return value

    @field_validator("discord_public_key")
    @classmethod
    def _hex_key(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                if len(bytes.fromhex(value)) != 32:
                    raise ValueError
            except ValueError:
                raise ValueError(
                    "is not an Ed25519 public key (64 hex digits, from the developer portal)"
                ) from None
        return value

    @field_validator("rate_limit_storage")
    @classmethod
    def _storage(cls, value: str) -> str:
        from limits.storage import SCHEMES

        scheme = value.split("://", 1)[0].lower() if "://" in value else ""
        if scheme not in SCHEMES:
            raise ValueError("is not a storage URL: `memory://` or `redis://host:6379/0`")
        return value

    @model_validator(mode="after")
    def _burst_holds_the_rate(self) -> "Settings":
        limit = self.rate_item
        if (
            limit is not None
            and self.rate_limit_burst is not None
            and self.rate_limit_burst < limit.amount
        ):
            raise ValueError(
                f"RULINGS_RATE_LIMIT_BURST={self.rate_limit_burst} must be at least the "
                f"rate's count ({limit.amount} in RULINGS_RATE_LIMIT={self.rate_limit!r})"
            )
        return self

    # -- derived values --------------------------------------------------------------------
    @property
    def rate_item(self):
        """The sustained rate as a ``limits`` item; None when the limit is off."""
        if self.rate_limit == OFF:
            return None
        from limits import parse

        return parse(self.rate_limit)

    @property
    def burst_window(self) -> tuple[int, int] | None:
        """The limit enforced: (requests, seconds) of one moving window holding the burst.

        A window of ``burst`` requests over ``burst / rate`` seconds lets a client send the
        whole burst at once and holds it to the rate on average (see the README's "A polite
        API"); the seconds are rounded up, never letting more than the rate through."""
        item = self.rate_item
        if item is None:
            return None
        burst = self.rate_limit_burst or 2 * item.amount
        return burst, max(1, math.ceil(burst * item.get_expiry() / item.amount))

    @property
    def exempt_networks(self) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
        if self.rate_limit_exempt == NONE:
            return []
        return [ipaddress.ip_network(w, strict=False) for w in _words(self.rate_limit_exempt)]

    @property
    def cors_origin_list(self) -> list[str]:
        return [] if self.cors_origins.lower() == NONE else _words(self.cors_origins)

    @property
    def cors_method_list(self) -> list[str]:
        return [m.upper() for m in _words(self.cors_methods)]

    def secret(self, name: str) -> str | None:
        """The plain value of a secret setting (`api_key`, `discord_token`), or None."""
        value: Any = getattr(self, name)
        return value.get_secret_value() if value is not None else None


def settings_table() -> str:
    """The README's settings table (markdown), one row per variable, from the model."""
    rows = ["| setting | default | what |", "|---|---|---|"]
    rows += [f"| `{name}` | {default} | {help_} |" for name, default, help_ in Settings.variables()]
    return "\n".join(rows) + "\n"


if __name__ == "__main__":  # python -m service.settings: print the table for the README
    sys.stdout.write(settings_table())
