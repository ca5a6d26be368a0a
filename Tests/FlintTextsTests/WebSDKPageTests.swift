import Testing

@testable import FlintTexts

@Suite("The JS SDK's hand-over and iframe pages")
struct WebSDKPageTests {
    @Test("the iframe's frame-ancestors: each domain once, any port, http and https; none at all when there are none")
    func iframePolicy() {
        let policy = WebSDKPage.iframePolicy(frameAncestors: ["app.example.com", "APP.example.com", "10.0.0.7", "bad domain;"])
        #expect(
            policy
                == "default-src 'none'; script-src 'self' https://apis.google.com; frame-ancestors http://app.example.com:* "
                + "https://app.example.com:* http://10.0.0.7:* https://10.0.0.7:*; base-uri 'none'; form-action 'none'")
        #expect(WebSDKPage.iframePolicy(frameAncestors: []).contains("frame-ancestors 'none';"))
    }

    @Test("the pages run no inline script, and what they carry is escaped in its attributes")
    func escaping() {
        let handoff = WebSDKPage.Handoff(
            popup: true, event: #"{"type":"signInViaPopup","eventId":"1\"><script>x</script>"}"#, apiKey: "k", appName: "<app>",
            redirectURL: "https://app.example.com/?a=1&b='2'", sessionKey: "flint:handlerSession:ab", errorMessage: nil,
            appDisplayName: "Acme & Co")
        let page = WebSDKPage.handoff(handoff)
        #expect(!page.contains("<script>") && page.split(separator: "<script", omittingEmptySubsequences: false).count == 2)
        #expect(page.contains("data-event=\"{&quot;type&quot;:&quot;signInViaPopup&quot;,&quot;eventId&quot;:&quot;1\\&quot;&gt;&lt;script&gt;"))
        #expect(
            page.contains("data-app-name=\"&lt;app&gt;\"") && page.contains("data-redirect-url=\"https://app.example.com/?a=1&amp;b=&#39;2&#39;\""))
        #expect(page.contains("data-mode=\"popup\"") && page.contains("data-session-key=\"flint:handlerSession:ab\""))
        let start = WebSDKPage.start(
            appName: "Acme", session: "s\"1", sessionKey: "k", next: "https://idp.example/a?x=1&y=2", origin: "https://flint.example")
        #expect(start.contains("data-session=\"s&quot;1\"") && start.contains("data-next=\"https://idp.example/a?x=1&amp;y=2\""))
        #expect(start.contains("data-origin=\"https://flint.example\"") && start.contains("<script src=\"/__/auth/handler.js\"></script>"))
        #expect(WebSDKPage.iframe.contains("<script src=\"/__/auth/iframe.js\"></script>"))
    }

    @Test("the scripts use the names the pages and the SDK expect")
    func scripts() {
        #expect(IframeScript.text.contains("window.\(WebSDKPage.gapiOnload) = function"))
        #expect(IframeScript.text.contains("\"\(HandlerScript.messageType)\"") && HandlerScript.text.contains("\"\(HandlerScript.messageType)\""))
        #expect(IframeScript.text.contains("\"firebase:redirectEvent:\"") && HandlerScript.text.contains("\"firebase:redirectEvent:\""))
        #expect(IframeScript.text.contains("status: \"ACK\", webStorageSupport: true") && IframeScript.text.contains("auth/no-auth-event"))
        // The iframe loads Google's loader, or Flint's stand-in when the stand-in opened it.
        #expect(IframeScript.text.contains("\"https://apis.google.com/js/api.js\"") && IframeScript.text.contains("\"/__/auth/gapi.js\""))
        #expect(IframeScript.text.contains("opener.get(\"flintGapi\") === \"1\"") && GapiStandIn.text.contains("url.hash = \"flintGapi=1&parent=\""))
    }
}
