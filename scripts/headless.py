"""What the browser tests (scripts/browser-test.py, scripts/console-browser-test.py) share: a free loopback port,
waiting for `flint serve` to answer, and headless Chromium found on PATH and started through chromedriver."""
import shutil
import socket
import sys
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


def chromium_paths(test):
    """Chromium and chromedriver on PATH; exits naming `test` when either is missing."""
    chromium = next(filter(None, (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome"))), None)
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        sys.exit(f"{test}: chromium and chromedriver must be on PATH (Debian: apt-get install chromium chromium-driver)")
    return chromium, driver_path


def headless_chromium(chromium, driver_path, profile, window_size):
    """A headless Chromium with its own profile folder and a 20 s page-load timeout."""
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={window_size}",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.set_page_load_timeout(20)
    return driver
