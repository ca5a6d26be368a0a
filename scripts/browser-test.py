#!/usr/bin/env python3
"""A real browser calls Flint cross-origin: headless Chromium loads a page served on another origin (a second port),
whose script calls a running `flint serve` with fetch() for one success and three errors, and shows what it read.
The test asserts the statuses and Firebase messages the page could read (a missing CORS header makes fetch() fail,
and an error without one reads as status 0), and saves a screenshot of the page.

Usage: browser-test.py --flint .build/debug/flint [--screenshot docs/browser-cors-test.png]
"""
import json
import os
import sys

from selenium.webdriver.support.ui import WebDriverWait

from headless import BrowserRun, free_port

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Flint CORS test</title>
<style>
 body { font: 14px system-ui, sans-serif; margin: 24px; }
 table { border-collapse: collapse; } td, th { border: 1px solid #bbb; padding: 4px 8px; text-align: left; }
 .ok { color: #060; } .bad { color: #a00; }
</style></head>
<body>
<h1>Flint, called cross-origin</h1>
<p>This page: <code id="self"></code> &mdash; Flint: <code id="flint"></code></p>
<table><thead><tr><th>call</th><th>status</th><th>read from the answer</th></tr></thead><tbody id="rows"></tbody></table>
<script>
const flint = "__FLINT__";
document.getElementById("self").textContent = location.origin;
document.getElementById("flint").textContent = flint;
// The headers the Firebase Web SDK sends: they make every POST a preflighted request.
const sdkHeaders = {
  "Content-Type": "application/json",
  "X-Client-Version": "Chrome/JsCore/11.0.0/FirebaseCore-web",
  "X-Firebase-gmpid": "1:1234567890:web:abcdef",
  "X-Firebase-Client": "eyJ2ZXJzaW9uIjoyfQ",
};
const v1 = flint + "/identitytoolkit.googleapis.com/v1";
const calls = [
  { name: "sendVerificationCode", url: v1 + "/accounts:sendVerificationCode?key=browser-test", method: "POST",
    body: JSON.stringify({ phoneNumber: "+16505553434", recaptchaToken: "any-token-in-dev-mode" }) },
  { name: "signInWithPhoneNumber, unknown session", url: v1 + "/accounts:signInWithPhoneNumber?key=browser-test", method: "POST",
    body: JSON.stringify({ sessionInfo: "no-such-session", code: "123456" }) },
  { name: "a path Flint does not route", url: v1 + "/accounts:nowhere?key=browser-test", method: "POST", body: "{}" },
  { name: "JSON that does not parse", url: v1 + "/accounts:signInWithPhoneNumber?key=browser-test", method: "POST", body: "{oops" },
];
async function run(call) {
  try {
    const response = await fetch(call.url, { method: call.method, headers: sdkHeaders, body: call.body });
    const json = await response.json();
    const read = json.error ? json.error.message : (json.sessionInfo ? "sessionInfo: " + json.sessionInfo.slice(0, 16) + "..." : JSON.stringify(json));
    return { name: call.name, status: response.status, message: json.error ? json.error.message : null,
             sessionInfo: json.sessionInfo || null, read };
  } catch (error) {
    return { name: call.name, status: 0, message: null, sessionInfo: null, read: String(error) };
  }
}
(async () => {
  const results = [];
  for (const call of calls) {
    const result = await run(call);
    results.push(result);
    const row = document.createElement("tr");
    row.className = result.status ? "ok" : "bad";
    for (const text of [result.name, String(result.status), result.read]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.appendChild(cell);
    }
    document.getElementById("rows").appendChild(row);
  }
  window.flintResults = results;
})();
</script>
</body></html>
"""

# (status, message prefix) each call must read; None: a success carrying sessionInfo.
EXPECTED = [
    (200, None),
    (400, "INVALID_SESSION_INFO"),
    (404, "Not Found"),
    (400, "Invalid JSON payload received."),
]


def main():
    with BrowserRun("browser test", "flint-browser-test-") as run:
        args, flint_url, page_port = run.args, run.flint_url, free_port()
        # The page comes from another origin: a second server on another port (localhost, not 127.0.0.1, too).
        run.serve_page(PAGE.replace("__FLINT__", flint_url).encode(), page_port)
        driver = run.browser("1100,480")
        driver.get(f"http://localhost:{page_port}/")
        results = WebDriverWait(driver, 20).until(lambda d: d.execute_script("return window.flintResults || null"))
        if args.screenshot:
            os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
            driver.save_screenshot(args.screenshot)

        failures = []
        for result, (status, message) in zip(results, EXPECTED):
            line = f"{result['name']}: {result['status']} {result['read']}"
            print("  " + line)
            if result["status"] != status:
                failures.append(f"{line} (expected status {status})")
            elif message is None and not result.get("sessionInfo"):
                failures.append(f"{line} (expected a sessionInfo)")
            elif message is not None and not (result.get("message") or "").startswith(message):
                failures.append(f"{line} (expected message {message!r})")
        if len(results) != len(EXPECTED):
            failures.append(f"the page made {len(results)} calls, expected {len(EXPECTED)}")
        if failures:
            sys.exit("browser test failed:\n  " + "\n  ".join(failures))
        print("browser test: a page on another origin read Flint's success and error answers")


if __name__ == "__main__":
    main()
