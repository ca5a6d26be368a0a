#!/usr/bin/env python3
"""firebase-admin-python's own integration tests (integration/test_tenant_mgt.py, integration/test_auth.py) against a
built `flint`, unedited, at a pinned commit of the firebase-admin-python repository.

The test files come from a local git copy of the repository (FIREBASE_ADMIN_PYTHON_REPO, by default this machine's
mirror); nothing of them is vendored here. Without that copy (CI has none, and no network) the run is skipped with a
message. They run twice, in two modes:

- emulator: a dev-mode Flint, FIREBASE_AUTH_EMULATOR_HOST pointing at it (the SDK's own way to another host:
  `Bearer owner`, unsigned custom tokens, no signature checks);
- production: a `--no-dev` Flint with a named admin credential and the service-account file from
  `flint admin service-accounts create`; no emulator variable, so the SDK signs custom tokens RS256 and checks ID
  token and session cookie signatures against the keys it downloads (from Flint, through the redirect).

In both, scripts/flint_google_redirect.py (a pytest plugin) rewrites the Google hosts the tests and the SDK call to
Flint and answers google-auth's OAuth2 token request locally with the admin credential; see its docstring.
`--cert` is the service-account file (project_id = Flint's project), `--apikey` a file with a key Flint accepts.

Usage: admin-sdk-integration-test.py --flint .build/debug/flint [--mode emulator|production|both] [-k EXPR]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flint_testkit import PROJECT, Flint  # noqa: E402

# firebase-admin-python on 2026-07-09, just after release 7.5.0 (this machine's mirror's head); the tests are read at this commit only.
PINNED_COMMIT = "b40e7388053428be4da3ed3adf7f74c0c4a57398"
DEFAULT_REPO = "/work/.mirror/firebase+firebase-admin-python/repo"
FILES = ["integration/__init__.py", "integration/conftest.py", "integration/test_auth.py", "integration/test_tenant_mgt.py"]
API_KEY = "flint-integration-api-key"
ADMIN_TOKEN = "bootstrap-secret-for-integration-tests"


def skip(message):
    print(f"admin SDK integration test SKIPPED: {message}")
    sys.exit(0)


def extract_tests(work):
    repo = os.environ.get("FIREBASE_ADMIN_PYTHON_REPO", DEFAULT_REPO)
    if not os.path.isdir(repo):
        skip(f"no firebase-admin-python repository at {repo} (set FIREBASE_ADMIN_PYTHON_REPO to a clone that has "
             f"commit {PINNED_COMMIT}); the integration tests are not vendored")
    found = subprocess.run(["git", "-C", repo, "cat-file", "-e", f"{PINNED_COMMIT}^{{commit}}"], capture_output=True)
    if found.returncode != 0:
        skip(f"{repo} is not a git copy of firebase-admin-python with the pinned commit {PINNED_COMMIT} (git fetch it)")
    archive = subprocess.run(["git", "-C", repo, "archive", PINNED_COMMIT, *FILES], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", work], input=archive, check=True)
    print(f"== firebase-admin-python integration tests at {PINNED_COMMIT[:12]} from {repo}")


def start_flint(binary, work, mode):
    data = os.path.join(work, f"data-{mode}")
    os.makedirs(data)
    cert = os.path.join(work, f"service-account-{mode}.json")
    subprocess.run([binary, "admin", "service-accounts", "create", "integration", "--project", PROJECT, "--data", data,
                    "--output", cert], check=True, capture_output=True)
    if mode == "emulator":
        return Flint(binary, data, "--dev"), cert, "owner"
    secret = subprocess.run([binary, "admin", "tokens", "create", "integration", "--scope", "write", "--data", data],
                            check=True, capture_output=True, text=True).stdout.strip()
    flint = Flint(binary, data, "--no-dev", "--admin-token", ADMIN_TOKEN, "--api-key", API_KEY)
    return flint, cert, secret


def run_mode(binary, work, mode, pytest_args):
    flint, cert, access_token = start_flint(binary, work, mode)
    apikey = os.path.join(work, "apikey.txt")
    with open(apikey, "w") as file:
        file.write(API_KEY)
    report = os.path.join(work, f"junit-{mode}.xml")
    redirects = os.path.join(work, f"redirects-{mode}.json")
    env = dict(os.environ, FLINT_BASE=flint.base, FLINT_ACCESS_TOKEN=access_token, FLINT_REDIRECT_LOG=redirects,
               PYTHONPATH=os.pathsep.join([os.path.dirname(os.path.abspath(__file__)), os.environ.get("PYTHONPATH", "")]))
    env.pop("FIREBASE_AUTH_EMULATOR_HOST", None)
    env.pop("GOOGLE_APPLICATION_CREDENTIALS", None)
    if mode == "emulator":
        env["FIREBASE_AUTH_EMULATOR_HOST"] = f"127.0.0.1:{flint.port}"
    print(f"== {mode}: flint serve {'--dev' if mode == 'emulator' else '--no-dev'} at {flint.base}", flush=True)
    try:
        subprocess.run([sys.executable, "-m", "pytest", "-p", "flint_google_redirect", "-p", "no:cacheprovider",
                        "-p", "no:benchmark", "-q", "-rN", "--tb=short", f"--junitxml={report}", f"--cert={cert}",
                        f"--apikey={apikey}", "integration/test_tenant_mgt.py", "integration/test_auth.py", *pytest_args],
                       cwd=work, env=env, timeout=900)
    finally:
        flint.stop()
    if not os.path.exists(report):
        raise RuntimeError(f"pytest wrote no report in {mode} mode; see its output above")
    if os.path.exists(redirects):
        with open(redirects) as file:
            print(f"== {mode}: requests redirected (by host): {json.load(file)}")
    return results_of(report)


def results_of(report):
    """(test id, outcome, first line of the failure) for each test case of a JUnit XML report."""
    results = []
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        name = f"{case.get('classname').removeprefix('integration.')}::{case.get('name')}"
        outcome, message = "passed", ""
        for kind in ("failure", "error", "skipped"):
            element = case.find(kind)
            if element is not None:
                outcome = {"failure": "FAILED", "error": "ERROR", "skipped": "skipped"}[kind]
                message = (element.get("message") or "").splitlines()[0][:160] if element.get("message") else ""
                break
        results.append((name, outcome, message))
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--flint", required=True)
    parser.add_argument("--mode", choices=["emulator", "production", "both"], default="both")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs, reports)")
    args, pytest_args = parser.parse_known_args()
    try:
        import firebase_admin  # noqa: F401
        import pytest  # noqa: F401
    except ImportError as error:
        skip(f"{error.name} is not installed")
    work = tempfile.mkdtemp(prefix="flint-admin-integration-")
    failed = 0
    try:
        extract_tests(work)
        modes = ["emulator", "production"] if args.mode == "both" else [args.mode]
        summary = {mode: run_mode(os.path.abspath(args.flint), work, mode, pytest_args) for mode in modes}
        print("\n== summary (" + " / ".join(summary) + ")")
        outcomes = {mode: {name: (outcome, message) for name, outcome, message in results} for mode, results in summary.items()}
        for name, _, _ in next(iter(summary.values())):
            print(" / ".join(f"{outcomes[mode].get(name, ('-',))[0]:7}" for mode in summary), name)
        for mode, results in summary.items():
            counts = {outcome: sum(1 for _, o, _ in results if o == outcome) for outcome in ("passed", "FAILED", "ERROR", "skipped")}
            print(f"\n{mode}: " + ", ".join(f"{n} {o.lower()}" for o, n in counts.items() if n))
            for name, outcome, message in results:
                if outcome in ("FAILED", "ERROR"):
                    print(f"  {outcome} {name}: {message}")
            failed += counts["FAILED"] + counts["ERROR"]
    finally:
        if args.keep:
            print(f"work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
