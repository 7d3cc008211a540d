"""A real server process for the tests that need one (a kill, a race between requests): Django's
own threaded server (`manage.py runserver --noreload`) on a free port, on the database URL the
test gives, with the test settings; stopped (killed) when the test is done with it."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings

START_SECONDS = 120


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


@contextlib.contextmanager
def serving(database_url: str, log: Path) -> Iterator[tuple[subprocess.Popen, int]]:
    """Yield the server process and its port once it accepts connections."""
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "outfall.web.config.settings_test",
        "DATABASE_URL": database_url,
    }
    manage = str(Path(settings.REPO_DIR) / "manage.py")
    server = subprocess.Popen(
        [sys.executable, manage, "runserver", f"127.0.0.1:{port}", "--noreload"],
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _accepts(port):
            if server.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not start: {log.read_text()[-2000:]}")
            time.sleep(0.1)
        yield server, port
    finally:
        if server.poll() is None:
            server.kill()
        server.wait(timeout=30)
