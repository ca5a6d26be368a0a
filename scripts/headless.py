"""What the browser tests (scripts/browser-test.py, scripts/console-browser-test.py, scripts/passkey-browser-test.py,
scripts/redirect-browser-test.py, scripts/websdk-browser-test.py) share: a free loopback port, `flint serve --dev` started, waited for and stopped, a
page served from another origin, and headless Chromium found on PATH and started through chromedriver; `BrowserRun`
puts them together for a test whose page talks to a fresh `flint serve`."""
import argparse
import http.server
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url, process, seconds=30):
    """True once `url` answers; False when `process` exits first or `seconds` pass."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            return False
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return True
        except Exception:
            time.sleep(0.1)
    return False


def flint_env():
    """The environment without the caller's FLINT_* variables, so a test's server has only the flags it is given."""
    return {k: v for k, v in os.environ.items() if not k.startswith("FLINT_")}


def start_flint(binary, work, port):
    """`flint serve --dev` on `port` with a fresh data directory in `work`, its output in work/flint.log; returns the
    process and the open log (for stop_flint)."""
    log = open(os.path.join(work, "flint.log"), "w")
    process = subprocess.Popen([binary, "serve", "--port", str(port), "--data", os.path.join(work, "data"), "--dev"],
                               stdout=log, stderr=subprocess.STDOUT, env=flint_env())
    return process, log


def stop_flint(process, log, work):
    """Stops `flint serve` (SIGTERM, SIGKILL after 10 s), closes its log and removes `work`."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()
    shutil.rmtree(work, ignore_errors=True)


def serve_page(page, port):
    """Answers every GET on 127.0.0.1:`port` with `page` (HTML bytes) from a background thread; returns the server."""
    class PageHandler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), PageHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def chromium_paths(test):
    """Chromium and chromedriver on PATH; exits naming `test` when either is missing."""
    chromium = next(filter(None, (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome"))), None)
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        sys.exit(f"{test}: chromium and chromedriver must be on PATH (Debian: apt-get install chromium chromium-driver)")
    return chromium, driver_path


def headless_chromium(chromium, driver_path, profile, window_size, flags=()):
    """A headless Chromium with its own profile folder, a 20 s page-load timeout and `flags` added."""
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={window_size}",
                 f"--user-data-dir={profile}", *flags):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.set_page_load_timeout(20)
    return driver


class BrowserRun:
    """One run of a browser test against a fresh `flint serve --dev`: reads `--flint` (the binary) and `--screenshot`,
    finds Chromium, starts the server in a new work folder and waits for it (exiting, with its log, when it does not
    start). `with BrowserRun(name, prefix) as run:`; what the test starts through `run.serve_page` and `run.browser`
    is stopped on the way out, then the server, and the work folder is removed."""

    def __init__(self, name, prefix):
        parser = argparse.ArgumentParser()
        parser.add_argument("--flint", required=True, help="the flint binary")
        parser.add_argument("--screenshot", help="where to save a PNG of the page")
        self.args = parser.parse_args()
        self.name = name
        self.chromium, self.driver_path = chromium_paths(name)
        self.work = tempfile.mkdtemp(prefix=prefix)
        self.flint_url = f"http://127.0.0.1:{free_port()}"
        self.driver = None
        self.servers = []

    def __enter__(self):
        self.process, self.log = start_flint(self.args.flint, self.work, int(self.flint_url.rsplit(":", 1)[1]))
        if not wait_ready(self.flint_url + "/", self.process):
            output = open(os.path.join(self.work, "flint.log")).read()
            self.__exit__(None, None, None)
            sys.exit(f"{self.name}: flint serve did not start:\n{output}")
        return self

    def serve_page(self, page, port):
        """`serve_page`, shut down with the run."""
        self.servers.append(serve_page(page, port))

    def browser(self, window_size, flags=()):
        """Headless Chromium with a profile in the work folder and `flags` added, quit with the run."""
        self.driver = headless_chromium(self.chromium, self.driver_path, os.path.join(self.work, "profile"), window_size, flags)
        return self.driver

    def __exit__(self, *_):
        if self.driver is not None:
            self.driver.quit()
        for server in self.servers:
            server.shutdown()
        stop_flint(self.process, self.log, self.work)
        return False
