import FlintCore
import FlintTexts
import HTTPTypes
import Hummingbird
import NIOCore

/// `/__/auth/handler`, the page the SDKs open in a browser, serving two flows by what it is given: app verification's
/// web challenge (`authType=verifyApp`, ``AppVerificationRoutes``) and provider sign-in (``FederatedRedirect``): a
/// start (`authType=signInWithRedirect`… with `providerId`) answers `303` to the provider, the provider's callback
/// (`code` and `state`, or `error`; a `POST` for Apple's `form_post`, and a SAML IdP's `SAMLResponse` and `RelayState`)
/// answers `303` to the app or page. The JS SDK's
/// popups and redirects (a start with `appName`) answer pages that hand the auth event over instead
/// (``WebSDKHandoff``). What cannot be used answers an HTML page saying why. `GET /emulator/auth/handler`, where
/// FirebaseAuth opens it under `useEmulator` and the JS SDK under `connectAuthEmulator`, serves the same.
struct AuthHandlerRoutes {
    let challenge: AppVerificationRoutes
    let redirect: FederatedRedirect
    var webSDK: WebSDKHandoff { WebSDKHandoff(redirect: redirect) }

    /// Where FirebaseAuth opens the handler when it talks to an emulator.
    static let emulatorPath = "/emulator/auth/handler"
    /// The largest callback form read (Apple's carries an ID token and the user's name).
    static let maxForm = 16 * 1024
    /// The largest SAML IdP's post read (a signed response with its certificate is a few kilobytes; FlintSAML reads
    /// at most a mebibyte).
    static let maxSAMLForm = 256 * 1024

    func get(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let fields = request.uri.queryParameters.reduce(into: [String: String]()) { $0[String($1.key)] = String($1.value) }
        if fields["authType"] == "verifyApp" { return try await challenge.showChallenge(request, context: context) }
        if fields["state"] != nil || fields["code"] != nil || fields["error"] != nil { return callback(fields, request: request) }
        let start: RedirectStartRequest
        do { start = try RedirectStartRequest(fields) } catch { return failure(error.message) }
        if case .sdk = start.target { return await webSDK.start(start) }
        do {
            let started = try await redirect.start(start)
            var response = Self.redirect(to: started.location)
            if let cookie = started.cookie { response.headers[.setCookie] = cookie }
            return response
        } catch { return failure(error.message) }
    }

    func post(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let buffer: ByteBuffer
        let tooLarge = AppVerificationRoutes.htmlPage(
            ChallengePage.failure(appName: redirect.flow.node.appName, message: "The form is too large."), scheme: nil, status: .contentTooLarge)
        do { buffer = try await request.body.collect(upTo: Self.maxSAMLForm) } catch { return tooLarge }
        let fields = FormDecoding.decode(String(buffer: buffer))
        // A SAML IdP's HTTP-POST binding.
        if fields["SAMLResponse"] != nil {
            do { return answer(try await redirect.samlOutcome(fields)) } catch { return failure(error.message) }
        }
        guard buffer.readableBytes <= Self.maxForm else { return tooLarge }
        if fields["state"] != nil { return callback(fields, request: request) }
        var replay = request
        replay.body = RequestBody(buffer: buffer)
        return try await challenge.submitChallenge(replay, context: context)
    }

    /// The provider's callback, with the browser's cookies (an OAuth 1.0a request token's): the answer clears the
    /// cookies the sign-in spent.
    private func callback(_ fields: [String: String], request: Request) -> Response {
        let outcome: FederatedRedirect.Outcome
        do { outcome = try redirect.outcome(fields, cookie: { request.cookies[$0]?.value }) } catch { return failure(error.message) }
        return answer(outcome)
    }

    /// Where a provider's callback goes: the app or page (a `303`), or the JS SDK's hand-over page.
    private func answer(_ outcome: FederatedRedirect.Outcome) -> Response {
        var response = redirect.location(after: outcome).map(Self.redirect(to:)) ?? webSDK.callback(outcome)
        for cookie in outcome.cookies { response.headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return response
    }

    private func failure(_ message: String) -> Response {
        AppVerificationRoutes.htmlPage(ChallengePage.failure(appName: redirect.flow.node.appName, message: message), scheme: nil, status: .badRequest)
    }

    /// A `303` to `location`, never cached and leaking nothing as a referrer.
    static func redirect(to location: String) -> Response {
        var headers = AppVerificationRoutes.strictHeaders(scheme: nil)
        headers[.location] = location
        return Response(status: .seeOther, headers: headers)
    }
}
