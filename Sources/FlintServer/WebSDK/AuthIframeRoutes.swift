import FlintCore
import FlintTexts
import HTTPTypes
import Hummingbird
import NIOCore

/// `/__/auth/iframe` (and `/emulator/auth/iframe`, where the JS SDK embeds it under `connectAuthEmulator`): the hidden
/// page the JS SDK opens with gapi's `gapi.iframes` to receive auth events (``IframeScript``), the two scripts of the
/// JS SDK's flow, `/__/auth/iframe.js` and `/__/auth/handler.js` (``HandlerScript``), and `/__/auth/gapi.js`, Flint's
/// stand-in for gapi (``GapiStandIn``). Only pages of the authorized
/// domains (and `localhost` in dev mode) may frame the iframe: its `Content-Security-Policy` lists them in
/// `frame-ancestors`.
struct AuthIframeRoutes: Sendable {
    let node: Node

    /// The iframe's path under the emulator's prefix.
    static let emulatorPath = "/emulator/auth/iframe"
    /// The iframe's path on an auth domain.
    static let path = "/__/auth/iframe"

    /// The iframe page for `apiKey` and `appName`; an error page for a missing or refused key or a missing app name.
    func iframe(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let query = HandlerQuery(request.uri.queryParameters.reduce(into: [String: String]()) { $0[String($1.key)] = String($1.value) })
        let refusal: String?
        do {
            let apiKey = try query.apiKey()
            let appName = try query.field("appName", max: 128, allowed: { HandlerQuery.printable($0) })
            if apiKey == nil || appName == nil {
                refusal = "The apiKey and appName parameters are needed."
            } else if let apiKey, !node.settings.acceptsAPIKey(apiKey) {
                refusal = "The API key is not valid for this project."
            } else {
                refusal = nil
            }
        } catch { refusal = error.message }
        if let refusal { return WebSDKHandoff.page(ChallengePage.failure(appName: node.appName, message: refusal), status: .badRequest) }
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[.contentSecurityPolicy] = WebSDKPage.iframePolicy(frameAncestors: frameAncestors)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: WebSDKPage.iframe)))
    }

    /// The hosts whose pages may frame the iframe: the authorized domains, and `localhost` in dev mode.
    var frameAncestors: [String] {
        node.config.current.authorizedDomains + (node.settings.devMode ? ["localhost"] : [])
    }

    /// `GET /__/auth/iframe.js`.
    func iframeScript(_ request: Request, context: FlintRequestContext) async throws -> Response { Self.script(IframeScript.text) }

    /// `GET /__/auth/gapi.js`: Flint's stand-in for gapi's iframe RPC, for apps that load nothing from Google.
    func gapiStandIn(_ request: Request, context: FlintRequestContext) async throws -> Response { Self.script(GapiStandIn.text) }

    /// `GET /__/auth/handler.js`.
    func handlerScript(_ request: Request, context: FlintRequestContext) async throws -> Response { Self.script(HandlerScript.text) }

    private static func script(_ text: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/javascript; charset=utf-8"
        headers[.cacheControl] = "public, max-age=300"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
