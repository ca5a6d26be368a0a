"""What the Python tests of a built `flint` share: a node on a free loopback port, JSON posts, checks.

Imported by scripts/admin-sdk-test.py and scripts/blocking-functions-test.py.
"""
import base64
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request

PROJECT = "demo-flint"
# Production mode (`--no-dev`) needs the master key that seals the store's secrets; every command here inherits it.
os.environ.setdefault("FLINT_MASTER_KEY", base64.b64encode(os.urandom(32)).decode())


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def claims_of(jwt):
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def check(condition, message, detail=None):
    """Prints `message` when `condition` holds; fails with it (and `detail`, an answer) otherwise."""
    if not condition:
        raise AssertionError(message if detail is None else f"{message}: {detail}")
    print("ok:", message)


class Flint:
    """`flint serve` on a free loopback port with its own data directory."""

    def __init__(self, binary, data, *flags):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(data, f"flint-{self.port}.log"), "w")
        self.process = subprocess.Popen(
            [binary, "serve", "--port", str(self.port), "--data", data, "--project", PROJECT, "--password-hash-cost", "10", *flags],
            stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(300):
            if self.process.poll() is not None:
                raise RuntimeError("flint serve exited; see " + self.log.name)
            try:
                urllib.request.urlopen(self.base + "/readyz", timeout=1)
                return
            except OSError:  # not listening yet, or 503 while the store opens
                time.sleep(0.1)
        raise RuntimeError("flint serve did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()
