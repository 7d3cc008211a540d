"""Helpers for the tests that use the real queue: the database backend and the library's worker
run in-process (`manage.py db_worker --batch`), and mail servers on real sockets that refuse or
never answer."""

from __future__ import annotations

import contextlib
import signal
import socket
import threading

import pytest
from django.core.management import call_command

DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGQUIT]


@pytest.fixture
def queue(settings):
    """The production queue: jobs are rows of this database, run only by a worker."""
    settings.TASKS = DATABASE_QUEUE
    return settings


def run_worker() -> None:
    """Run every job that is due, as `manage.py db_worker --batch` does, then stop (the worker's
    signal handlers are put back as they were)."""
    saved = {s: signal.getsignal(s) for s in SIGNALS}
    try:
        call_command(
            "db_worker", "--batch", "--no-reload", "--no-startup-delay", "--interval=0", verbosity=0
        )
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def silent_mail_server():
    """A listening socket that accepts connections and never says a word; yields (port, the
    connections it accepted)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept_and_stay_silent():
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept_and_stay_silent, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1], held
    finally:
        stop.set()
        thread.join(2)
        for conn in held:
            conn.close()
        listener.close()


@pytest.fixture
def smtp(settings):
    """Mail goes out by SMTP to 127.0.0.1 (the test sets the port), waiting at most a second."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_TIMEOUT = 1
    return settings
