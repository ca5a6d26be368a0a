import AsyncHTTPClient
import FlintCore
import FlintServerTestSupport
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing

@testable import FlintServer

/// The iOS app the hosted-handler tests sign in from: its bundle ID (``appleBundleID``, made one of the project's
/// apps by ``API/allowApp()``), Google app ID and the URL scheme that gives.
let redirectAppID = "1:123456789:ios:abc123"
let redirectScheme = "app-1-123456789-ios-abc123"

extension API {
    /// Makes ``appleBundleID`` one of the project's iOS apps (`flint.appLinks.apple`).
    func allowApp() async throws {
        try await patchConfig(#"{"flint":{"appLinks":{"apple":{"teamId":"ABCDE12345","bundleIds":["com.example.app"]}}}}"#, mask: "flint.appLinks")
    }

    /// The query FirebaseAuth's `OAuthProvider.getCredentialWith` opens, for the raw session ID `sessionID`, with
    /// `extra` added or replacing (an empty value removes).
    static func redirectQuery(_ providerID: String, sessionID: String, _ extra: [String: String] = [:]) -> String {
        var fields: [String: String] = [
            "apiKey": "test", "authType": "signInWithRedirect", "ibi": appleBundleID, "sessionId": ProviderNonceRule.sha256Hex(sessionID),
            "v": "FirebaseAuth.iOS/12.0.0", "eventId": "EVENTABCDE", "providerId": providerID, "appId": redirectAppID,
        ]
        for (name, value) in extra { fields[name] = value.isEmpty ? nil : value }
        return URLQuery.encode(fields.sorted { $0.key < $1.key })
    }

    /// A GET of the handler (or `path`) with `query`.
    func handler(_ query: String, path: String = Path.handler) async throws -> Reply {
        try await call(.get, path + "?" + query)
    }

    /// A start, the provider's authorization endpoint, then the handler's callback: the callback's answer.
    func redirectSignIn(_ providerID: String, sessionID: String, _ extra: [String: String] = [:]) async throws -> Reply {
        let start = try await handler(Self.redirectQuery(providerID, sessionID: sessionID, extra))
        #expect(start.status == .seeOther, "\(start.text)")
        let provider = try await ProviderBrowser.visit(try #require(start.headers[.location]))
        if let form = provider.form {
            return try await call(.post, Path.handler, body: URLQuery.encode(form), contentType: "application/x-www-form-urlencoded")
        }
        return try await call(.get, try #require(provider.handlerPath))
    }

    /// `signInWithIdp` as FirebaseAuth completes a hosted-handler sign-in: `postBody` naming only the provider (none
    /// when `providerID` is `nil`), `requestUri` the callback link, `sessionId` the raw session ID, `tenantId` the app's
    /// tenant (none for `nil`).
    func completeRedirect(
        link: String, sessionID: String?, providerID: String? = "oidc.corp", idToken: String? = nil, tenantID: String? = nil
    ) async throws -> Reply {
        var body: [String: JSONValue] = ["requestUri": .string(link), "returnSecureToken": true, "returnIdpCredential": true]
        if let tenantID { body["tenantId"] = .string(tenantID) }
        if let providerID { body["postBody"] = .string("providerId=" + URLQuery.escape(providerID)) }
        if let sessionID { body["sessionId"] = .string(sessionID) }
        if let idToken { body["idToken"] = .string(idToken) }
        return try await postRaw(Path.signInWithIdp, String(decoding: JSONValue.object(body).serialized(), as: UTF8.self))
    }
}

/// The app-scheme callback of a hosted-handler sign-in:
/// `<scheme>://firebaseauth/link?deep_link_id=<https://…/__/auth/callback?authType=…&eventId=…&link=…>`.
struct RedirectCallback {
    let scheme: String
    let inner: [String: String]

    init(_ reply: Reply) throws {
        #expect(reply.status == .seeOther, "\(reply.text)")
        let location = try #require(reply.headers[.location])
        let outer = try #require(URLComponents(string: location))
        scheme = try #require(outer.scheme)
        #expect(outer.host == "firebaseauth" && outer.path == "/link")
        let deepLink = try #require(outer.queryItems?.first { $0.name == "deep_link_id" }?.value)
        #expect(URLComponents(string: deepLink)?.path == "/__/auth/callback")
        inner = queryItems(of: deepLink)
    }

    /// The link the SDK sends as `requestUri`.
    var link: String { inner["link"] ?? "" }
}

/// Plays the browser at the stand-in provider: one GET of the authorization URL, redirects not followed.
enum ProviderBrowser {
    /// Where the provider sent the browser back (a path of the handler), or the fields it would post (`form_post`).
    struct Visit {
        var handlerPath: String?
        var form: [(String, String)]?
    }

    static func visit(_ url: String) async throws -> Visit {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
            let body = String(buffer: try await response.body.collect(upTo: 1 << 16))
            try await client.shutdown()
            if let location = response.headers.first(name: "location") {
                let components = try #require(URLComponents(string: location))
                return Visit(handlerPath: components.path + "?" + (components.percentEncodedQuery ?? ""))
            }
            let fields = try #require((try? JSONValue(parsing: Array(body.utf8)))?.objectValue, "provider answered \(body)")
            return Visit(form: fields.compactMap { name, value in value.stringValue.map { (name, $0) } }.sorted { $0.0 < $1.0 })
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
