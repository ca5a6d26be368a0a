/// The pages of the Firebase JS SDK's popup and redirect sign-in (`signInWithPopup`, `signInWithRedirect`,
/// `getRedirectResult`, and their link and reauthentication forms): the hosted handler's start and hand-over pages and
/// the iframe page the SDK embeds. None has an inline script: each loads one of Flint's own scripts
/// (``HandlerScript``, ``IframeScript``), which read what they need from `data-` attributes, so the policies allow
/// scripts from Flint's origin only (and, for the iframe, Google's gapi loader, which the SDK's iframe protocol needs,
/// unless the app uses Flint's stand-in, ``GapiStandIn``).
package enum WebSDKPage {
    /// Where Flint serves ``HandlerScript``.
    package static let handlerScriptPath = "/__/auth/handler.js"
    /// Where Flint serves ``IframeScript``.
    package static let iframeScriptPath = "/__/auth/iframe.js"
    /// gapi's loader, as the JS SDK loads it; the iframe page loads it too, so both sides speak `gapi.iframes`.
    package static let gapiLoader = "https://apis.google.com/js/api.js"
    /// The global function gapi's loader calls once loaded (its `onload` parameter), defined by ``IframeScript``.
    package static let gapiOnload = "flintAuthIframeLoaded"

    /// The hand-over pages' policy: Flint's own scripts, inline styles (the page shell's), nothing framed, no forms.
    package static let handlerPolicy =
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        + "form-action 'none'"

    /// The iframe page's policy: Flint's script and gapi's, and only pages of the authorized domains (`domains`, any
    /// port, http or https) may frame it, so no other site can receive the auth events it relays.
    package static func iframePolicy(frameAncestors domains: [String]) -> String {
        var seen = Set<String>()
        let sources = domains.map { $0.lowercased() }.filter { seen.insert($0).inserted && isHost($0) }
            .flatMap { ["http://\($0):*", "https://\($0):*"] }
        let ancestors = sources.isEmpty ? "'none'" : sources.joined(separator: " ")
        return "default-src 'none'; script-src 'self' https://apis.google.com; frame-ancestors \(ancestors); base-uri 'none'; form-action 'none'"
    }

    /// The iframe page: ``IframeScript``, which loads gapi's loader (or Flint's stand-in), which calls it back.
    package static let iframe = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>Sign-in helper</title>
        <script src="\(iframeScriptPath)"></script>
        </head>
        <body></body>
        </html>

        """

    /// The start page: keeps the sign-in's session ID in the tab's `sessionStorage` under `sessionKey`, then goes on to
    /// the provider (`next`). `origin` is the origin of Flint's public URL, where the provider sends the browser back:
    /// a page opened at another origin (the SDK given another address of Flint) stops with a message instead, since
    /// the session it keeps would not be found there.
    package static func start(appName: String, session: String, sessionKey: String, next: String, origin: String) -> String {
        let escape = HTMLEscaping.escape
        let wrongOrigin = Placeholders.fill(Words.wrongOrigin, values: ["origin": origin])
        let body =
            "<p id=\"flint-status\" role=\"status\">Taking you to the sign-in page…</p>\n"
            + "<div id=\"flint-handoff\" hidden data-step=\"start\" data-session=\"\(escape(session))\" "
            + "data-session-key=\"\(escape(sessionKey))\" data-next=\"\(escape(next))\" data-origin=\"\(escape(origin))\" "
            + "data-no-storage=\"\(escape(Words.noStorage))\" data-wrong-origin=\"\(escape(wrongOrigin))\"></div>\n"
            + "<noscript><p class=\"error\">\(escape(Words.noScript))</p></noscript>\n"
            + "<script src=\"\(handlerScriptPath)\"></script>\n"
        return ActionPage.document(locale: "en", app: appName, title: "Signing in", body: body, metaPolicy: false)
    }

    /// The hand-over page of a provider's callback or of a refused start: ``HandlerScript`` hands `handoff`'s event to the
    /// app (popup) or leaves it for the app's iframe and returns to its page (redirect).
    package static func handoff(_ handoff: Handoff) -> String {
        let escape = HTMLEscaping.escape
        var body = ""
        if let error = handoff.errorMessage { body += "<p class=\"error\" role=\"alert\">\(escape(error))</p>\n" }
        body += "<p id=\"flint-status\" role=\"status\">\(escape(handoff.errorMessage == nil ? Words.working : Words.returning))</p>\n"
        var attributes = [
            ("step", "event"), ("mode", handoff.popup ? "popup" : "redirect"), ("event", handoff.event), ("api-key", handoff.apiKey),
            ("app-name", handoff.appName), ("redirect-url", handoff.redirectURL), ("no-storage", Words.noStorage),
            ("no-session", Words.noSession), ("no-opener", Words.noOpener), ("done", Words.done),
        ]
        if let key = handoff.sessionKey { attributes.append(("session-key", key)) }
        body += "<div id=\"flint-handoff\" hidden"
        for (name, value) in attributes { body += " data-\(name)=\"\(escape(value))\"" }
        body += "></div>\n<noscript><p class=\"error\">\(escape(Words.noScript))</p></noscript>\n"
        body += "<script src=\"\(handlerScriptPath)\"></script>\n"
        let title = handoff.errorMessage == nil ? "Signing in" : "The sign-in did not complete"
        return ActionPage.document(locale: "en", app: handoff.appDisplayName, title: title, body: body, metaPolicy: false)
    }

    /// What a hand-over page needs.
    package struct Handoff: Sendable {
        /// A popup (the event goes to the opener's iframe) or a redirect (it is stored, and the tab returns).
        package var popup: Bool
        /// The auth event as JSON text; its `sessionId` is filled in by the script.
        package var event: String
        package var apiKey: String
        /// The SDK's app name (`[DEFAULT]`…): with `apiKey`, the key of the app's iframe and stored event.
        package var appName: String
        /// The app's page, where a redirect returns.
        package var redirectURL: String
        /// Where the start page kept the session ID; `nil` for an error event, which carries none.
        package var sessionKey: String?
        /// Shown on the page when the event is an error.
        package var errorMessage: String?
        /// The project's app name shown above the title.
        package var appDisplayName: String

        /// Creates the page's inputs.
        package init(
            popup: Bool, event: String, apiKey: String, appName: String, redirectURL: String, sessionKey: String?, errorMessage: String?,
            appDisplayName: String
        ) {
            (self.popup, self.event, self.apiKey, self.appName, self.redirectURL) = (popup, event, apiKey, appName, redirectURL)
            (self.sessionKey, self.errorMessage, self.appDisplayName) = (sessionKey, errorMessage, appDisplayName)
        }
    }

    /// Whether `text` is a host name or IPv4 address (the authorized domains' characters), safe in a policy.
    private static func isHost(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }
    }

    /// The pages' words (English: the SDK shows its own errors; these are for a person looking at the window).
    enum Words {
        static let working = "Finishing the sign-in…"
        static let returning = "Returning to the app…"
        static let done = "Signed in. This window closes by itself."
        static let noScript = "This page needs JavaScript to finish the sign-in."
        static let noStorage = "This browser does not let the page keep the sign-in's session (sessionStorage is blocked)."
        static let noSession =
            "This sign-in was started in another tab or window, or its session was lost. Go back to the app and start again."
        static let noOpener = "The page that opened this window is gone. Go back to the app and start again."
        static let wrongOrigin =
            "This sign-in was opened at another address than this server's public URL ({origin}), where it would come back "
            + "without its session. Connect the app to {origin} (connectAuthEmulator), or set Flint's --public-url to this address."
    }
}
