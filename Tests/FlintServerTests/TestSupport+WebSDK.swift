import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

extension API {
    /// The query the Firebase JS SDK opens the handler with (`_getRedirectUrl`): `apiKey`, `appName`, `authType`,
    /// `redirectUrl` (the page), `v`, `providerId`, and a 10-digit `eventId` for a popup; `extra` adds or replaces (an
    /// empty value removes).
    static func webSDKQuery(_ providerID: String, authType: String = "signInViaPopup", _ extra: [String: String] = [:]) -> String {
        var fields: [String: String] = [
            "apiKey": "test", "appName": "[DEFAULT]", "authType": authType, "redirectUrl": "http://localhost:5000/app?page=1",
            "v": "12.6.0", "providerId": providerID,
        ]
        if authType.hasSuffix("ViaPopup") { fields["eventId"] = "4815162342" }
        for (name, value) in extra { fields[name] = value.isEmpty ? nil : value }
        return URLQuery.encode(fields.sorted { $0.key < $1.key })
    }

    /// `signInWithIdp` as the JS SDK completes an auth event (`requestUri`, `sessionId`, no `postBody`), with the node's
    /// clock first moved up to the wall clock: the stand-in issuer stamps its ID tokens with the wall clock, and a slow
    /// run (a loaded machine) must not make them look issued in the future.
    func completeWebSDK(link: String, sessionID: String?, idToken: String? = nil, tenantID: String? = nil) async throws -> Reply {
        let behind = Instant(Date()) - clock.now()
        if behind > .zero { clock.advance(by: behind) }
        return try await completeRedirect(link: link, sessionID: sessionID, providerID: nil, idToken: idToken, tenantID: tenantID)
    }

    /// A JS SDK start, the provider, then the handler's callback: the start page and the hand-over page.
    func webSDKSignIn(_ providerID: String, authType: String = "signInViaPopup", _ extra: [String: String] = [:]) async throws -> (
        start: HandlerPage, callback: HandlerPage
    ) {
        let start = try HandlerPage(try await handler(Self.webSDKQuery(providerID, authType: authType, extra), path: "/emulator/auth/handler"))
        #expect(start.status == .ok && start["step"] == "start", "\(start.reply.text)")
        let visit = try await ProviderBrowser.visit(try #require(start["next"]))
        return (start, try HandlerPage(try await call(.get, try #require(visit.handlerPath))))
    }
}

/// A hand-over page of the JS SDK's flow, read as its script reads it: the `data-` attributes of `#flint-handoff`.
struct HandlerPage {
    let reply: Reply
    let data: [String: String]

    init(_ reply: Reply) throws {
        self.reply = reply
        var data: [String: String] = [:]
        if let range = reply.text.range(of: "<div id=\"flint-handoff\"") {
            let tag = reply.text[range.lowerBound...].prefix { $0 != ">" }
            let pattern = try NSRegularExpression(pattern: #"data-([a-z-]+)="([^"]*)""#)
            let text = String(tag)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let name = Range(match.range(at: 1), in: text), let value = Range(match.range(at: 2), in: text) else { continue }
                data[String(text[name])] = Self.unescape(String(text[value]))
            }
        }
        self.data = data
    }

    var status: HTTPResponse.Status { reply.status }

    subscript(_ name: String) -> String? { data[name] }

    /// The auth event (`data-event`).
    var event: JSONValue? { data["event"].flatMap { try? JSONValue(parsing: Array($0.utf8)) } }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
