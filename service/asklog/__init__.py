"""The question log: every ask and vote kept (no person named), for the review queue.

``store`` holds the tables and migrations, ``writer`` the ``AskLog`` the service writes
through without waiting, ``review`` the curator's queue built from it (``rulings review``).
"""

from service.asklog.store import CHANNELS, AskEntry, LogUnavailable, UnknownAsk, Vote
from service.asklog.writer import AskLog

__all__ = ["CHANNELS", "AskEntry", "AskLog", "LogUnavailable", "UnknownAsk", "Vote"]
