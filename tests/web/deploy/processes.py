"""The deployment's processes, started by the tests as the compose file starts them: moto's S3 API
server standing in for the bucket, gunicorn serving the production profile, and `manage.py
db_worker`. Each is stopped by its process id when the test is done with it."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
START_SECONDS = 60
S3_CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "outfall-test",
    "AWS_SECRET_ACCESS_KEY": "outfall-test-secret",
    "AWS_DEFAULT_REGION": "us-east-1",
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def stop(process: subprocess.Popen, how: signal.Signals = signal.SIGTERM) -> None:
    """Stop one process this test started: `how`, then SIGKILL if it lingers."""
    if process.poll() is None:
        process.send_signal(how)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@contextlib.contextmanager
def started(
    command: list[str],
    env: Mapping[str, str],
    log: Path,
    port: int | None = None,
    stop_with: signal.Signals = signal.SIGTERM,
) -> Iterator[subprocess.Popen]:
    """`command` running (and accepting on `port`, when given) until the block ends; then
    stopped with `stop_with`."""
    process = subprocess.Popen(
        command, cwd=REPO, env=dict(env), stdout=log.open("w"), stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + START_SECONDS
        while port is not None and not accepts(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"{command[:3]} did not start: {log.read_text()[-3000:]}")
            time.sleep(0.1)
        yield process
    finally:
        stop(process, stop_with)


@contextlib.contextmanager
def s3_server(log: Path) -> Iterator[str]:
    """moto's S3 API server on a free port; yields its endpoint URL."""
    port = free_port()
    command = [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)]
    with started(command, os.environ, log, port):
        yield f"http://127.0.0.1:{port}"


def s3_client(endpoint: str):
    import boto3

    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id=S3_CREDENTIALS["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=S3_CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
        region_name=S3_CREDENTIALS["AWS_DEFAULT_REGION"],
    )


def private_bucket(endpoint: str, name: str) -> str:
    """A new bucket with every public access blocked, as the production bucket must be (README, Operations)."""
    client = s3_client(endpoint)
    client.create_bucket(Bucket=name)
    client.put_public_access_block(
        Bucket=name,
        PublicAccessBlockConfiguration={
            "BlockPublicAcls": True,
            "IgnorePublicAcls": True,
            "BlockPublicPolicy": True,
            "RestrictPublicBuckets": True,
        },
    )
    return name


def bucket_keys(endpoint: str, bucket: str) -> list[str]:
    listed = s3_client(endpoint).list_objects_v2(Bucket=bucket)
    return sorted(o["Key"] for o in listed.get("Contents", []))


def bucket_object(endpoint: str, bucket: str, key: str) -> bytes:
    return s3_client(endpoint).get_object(Bucket=bucket, Key=key)["Body"].read()
