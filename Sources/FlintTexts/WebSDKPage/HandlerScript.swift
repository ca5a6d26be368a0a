/// The hosted handler's script for the JS SDK (`/__/auth/handler.js`), run by ``WebSDKPage``'s start and hand-over
/// pages, which give it everything in the `data-` attributes of `#flint-handoff`.
///
/// - Start (`data-step="start"`): keeps the session ID Flint made in the tab's `sessionStorage` (the SHA-256 of it is
///   sealed in the provider's `state`), then replaces the page with the provider's authorization URL; a page at another
///   origin than Flint's public URL (`data-origin`), where the provider comes back, stops there and says so.
/// - Hand-over (`data-step="event"`): takes the session ID back (once) into the auth event, then for a popup posts
///   the event to the app's Flint iframes, the frames of `window.opener` whose origin is this page's and whose query
///   names the same `apiKey` and `appName` (`postMessage` with this origin as the target), and for a redirect stores
///   it under `firebase:redirectEvent:<apiKey>:<appName>`, where the app's iframe will find it, and replaces the page
///   with the app's `redirectUrl`. A session ID that is not there becomes an `auth/web-storage-unsupported` error.
package enum HandlerScript {
    /// The message type the iframe accepts from the hand-over page.
    package static let messageType = "flint:authEvent"

    /// The script.
    package static let text = """
        "use strict";
        (function () {
          var place = document.getElementById("flint-handoff");
          if (!place) { return; }
          function data(name) { return place.getAttribute("data-" + name) || ""; }
          function say(text) {
            var status = document.getElementById("flint-status");
            if (status) { status.textContent = text; }
          }
          function keep(key, value) {
            try { window.sessionStorage.setItem(key, value); return true; } catch (e) { return false; }
          }
          function take(key) {
            try {
              var value = window.sessionStorage.getItem(key);
              window.sessionStorage.removeItem(key);
              return value;
            } catch (e) { return null; }
          }
          if (data("step") === "start") {
            if (data("origin") && data("origin") !== window.location.origin) { say(data("wrong-origin")); return; }
            if (!keep(data("session-key"), data("session"))) { say(data("no-storage")); return; }
            window.location.replace(data("next"));
            return;
          }
          var event;
          try { event = JSON.parse(data("event")); } catch (e) { return; }
          var apiKey = data("api-key");
          var appName = data("app-name");
          if (!event.error && data("session-key")) {
            var session = take(data("session-key"));
            if (session) {
              event.sessionId = session;
            } else {
              event.urlResponse = null;
              event.error = { code: "auth/web-storage-unsupported", message: data("no-session") };
              say(data("no-session"));
            }
          }
          if (data("mode") === "redirect") {
            if (!keep("firebase:redirectEvent:" + apiKey + ":" + appName, JSON.stringify(event))) { say(data("no-storage")); return; }
            window.location.replace(data("redirect-url"));
            return;
          }
          var sent = 0;
          var frames = window.opener ? window.opener.frames : null;
          var count = frames ? frames.length : 0;
          for (var i = 0; i < count; i++) {
            try {
              var frame = frames[i];
              if (frame.location.origin !== window.location.origin || !/\\/auth\\/iframe$/.test(frame.location.pathname)) { continue; }
              var query = new URLSearchParams(frame.location.search);
              if (query.get("apiKey") !== apiKey || query.get("appName") !== appName) { continue; }
              frame.postMessage({ type: "\(messageType)", storageKey: apiKey + ":" + appName, authEvent: event }, window.location.origin);
              sent++;
            } catch (e) {
              // A frame of another origin: its location cannot be read.
            }
          }
          if (!sent) { say(data("no-opener")); } else if (!event.error) { say(data("done")); }
        })();

        """
}
