/// The script of the iframe the JS SDK embeds (`/__/auth/iframe.js`, loaded by ``WebSDKPage/iframe``). It loads gapi's
/// loader as the SDK does (`https://apis.google.com/js/api.js?onload=…`), or Flint's stand-in (``GapiStandIn``) when
/// the stand-in opened the frame (its marker in the fragment). Once the loader calls it back
/// (``WebSDKPage/gapiOnload``) it loads `gapi.iframes`, takes its parent (the SDK's page) with
/// `getParentIframe()`, answers `webStorageSupport` with `{status: "ACK", webStorageSupport: true}`, and sends the
/// parent one `authEvent` message: the event a redirect left in this tab's `sessionStorage` under
/// `firebase:redirectEvent:<apiKey>:<appName>` (then removed), or, with none, `{type: "unknown", error: {code:
/// "auth/no-auth-event"}}`, which `getRedirectResult` reads as "no result". Afterwards it relays what a popup's
/// hand-over page posts (``HandlerScript``): only messages from this page's own origin, of type
/// ``HandlerScript/messageType``, naming this frame's `apiKey` and `appName`.
package enum IframeScript {
    /// The script.
    package static let text = """
        "use strict";
        (function () {
          var query = new URLSearchParams(window.location.search);
          var storageKey = (query.get("apiKey") || "") + ":" + (query.get("appName") || "");
          var eventKey = "firebase:redirectEvent:" + storageKey;
          var parentFrame = null;
          var waiting = [];
          function isEvent(event) { return !!event && typeof event === "object" && typeof event.type === "string"; }
          function send(event) {
            parentFrame.send("authEvent", { type: "authEvent", authEvent: event }, function () {}, gapi.iframes.CROSS_ORIGIN_IFRAMES_FILTER);
          }
          window.addEventListener("message", function (message) {
            if (message.origin !== window.location.origin) { return; }
            var data = message.data;
            if (!data || data.type !== "\(HandlerScript.messageType)" || data.storageKey !== storageKey || !isEvent(data.authEvent)) { return; }
            if (parentFrame) { send(data.authEvent); } else { waiting.push(data.authEvent); }
          });
          function storedEvent() {
            try {
              var text = window.sessionStorage.getItem(eventKey);
              window.sessionStorage.removeItem(eventKey);
              var event = text ? JSON.parse(text) : null;
              return isEvent(event) ? event : null;
            } catch (e) { return null; }
          }
          function connect() {
            parentFrame = gapi.iframes.getContext().getParentIframe();
            parentFrame.register("webStorageSupport", function () {
              return { status: "ACK", webStorageSupport: true };
            }, gapi.iframes.CROSS_ORIGIN_IFRAMES_FILTER);
            send(storedEvent() || {
              type: "unknown", eventId: null, urlResponse: null, sessionId: null, postBody: null, tenantId: null,
              error: { code: "auth/no-auth-event", message: "No sign-in is waiting for this page." }
            });
            var queued = waiting;
            waiting = [];
            queued.forEach(send);
          }
          window.\(WebSDKPage.gapiOnload) = function () {
            gapi.load("gapi.iframes", { callback: connect, timeout: 10000, ontimeout: function () {} });
          };
          var opener = new URLSearchParams(window.location.hash.slice(1));
          var loader = document.createElement("script");
          loader.src = (opener.get("\(GapiStandIn.marker)") === "1" ? "\(GapiStandIn.path)" : "\(WebSDKPage.gapiLoader)")
            + "?onload=\(WebSDKPage.gapiOnload)";
          loader.async = true;
          document.head.appendChild(loader);
        })();

        """
}
