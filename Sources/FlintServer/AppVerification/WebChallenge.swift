import FlintCore
import FlintStore
import FlintTexts
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Flint's own web challenge at `/__/auth/handler` (the page FirebaseAuth opens in Safari when no silent push
/// arrives). GET shows a page with one button and a proof-of-work puzzle; the POST checks the solution, spends the
/// puzzle, and answers `303` to the app's URL scheme:
/// `<scheme>://firebaseauth/link?deep_link_id=<https://<host>/__/auth/callback?authType=verifyApp&recaptchaToken=…&eventId=…>`.
/// The token is single-use, bound to the project and valid for ``AppVerifier/challengeTokenLifetime``.
extension AppVerificationRoutes {
    static let handlerPath = "/__/auth/handler"
    /// Seconds a puzzle stays solvable.
    static let puzzleLifetime: Duration = .seconds(600)
    /// Tokens one client IP may get per hour.
    static let tokensPerIPPerHour: Int64 = 30

    func showChallenge(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let fields = request.uri.queryParameters.reduce(into: [String: String]()) { $0[String($1.key)] = String($1.value) }
        let parameters: WebChallengeParameters
        do {
            parameters = try WebChallengeParameters(fields, acceptsAPIKey: verifier.node.settings.acceptsAPIKey)
        } catch {
            return Self.htmlPage(ChallengePage.failure(appName: verifier.node.appName, message: error.message), scheme: nil, status: .badRequest)
        }
        return try challengePage(parameters, error: nil, status: .ok)
    }

    func submitChallenge(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let fields: [String: String]
        do {
            fields = FormDecoding.decode(String(buffer: try await request.body.collect(upTo: 16 * 1024)))
        } catch {
            return Self.htmlPage(
                ChallengePage.failure(appName: verifier.node.appName, message: "The form is too large."), scheme: nil, status: .contentTooLarge)
        }
        let parameters: WebChallengeParameters
        do {
            parameters = try WebChallengeParameters(fields, acceptsAPIKey: verifier.node.settings.acceptsAPIKey)
        } catch {
            return Self.htmlPage(ChallengePage.failure(appName: verifier.node.appName, message: error.message), scheme: nil, status: .badRequest)
        }
        let key = verifier.secret.appVerificationKey
        let now = verifier.node.clock.now()
        guard let puzzle = fields["puzzle"], let ticket = AppVerificationTicket(opening: puzzle, purpose: .puzzle, key: key),
            ticket.isValid(projectID: verifier.node.settings.projectID, now: now, lifetime: Self.puzzleLifetime)
        else { return try challengePage(parameters, error: "The check expired. Try again.", status: .badRequest) }
        guard ProofOfWork.isSolved(puzzle: puzzle, solution: fields["solution"] ?? "") else {
            return try challengePage(parameters, error: "The check did not pass. Try again.", status: .badRequest)
        }
        let expiresAt = ticket.issuedAt + Self.puzzleLifetime
        let limits =
            context.clientIP.map { [Limit(key: .webChallengeTokens(clientIP: $0), max: Self.tokensPerIPPerHour, window: .seconds(3600))] } ?? []
        let (uses, over) = try await verifier.node.store.write { tx in
            let uses = try await tx.incrementCounter(key: .appVerification(ticket), windowStart: .epoch, expiresAt: expiresAt)
            return (uses, uses == 1 ? try await limits.count(in: tx, now: now) : false)
        }
        guard uses == 1 else { return try challengePage(parameters, error: "This check was already used. Try again.", status: .badRequest) }
        guard !over else {
            return try challengePage(parameters, error: "Too many attempts from this network. Try again later.", status: .tooManyRequests)
        }
        let token = try AppVerificationTicket(
            purpose: .challengeToken, projectID: verifier.node.settings.projectID, issuedAt: now.wholeSecond,
            nonce: verifier.node.random.bytes(AppVerificationTicket.nonceLength)
        ).seal(key: key)
        let inner =
            verifier.node.settings.publicBaseURL + "/__/auth/callback?"
            + URLQuery.encode([("authType", "verifyApp"), ("recaptchaToken", token), ("eventId", parameters.eventID)])
        let location = "\(parameters.callbackScheme)://firebaseauth/link?" + URLQuery.encode([("deep_link_id", inner)])
        var headers = Self.strictHeaders(scheme: parameters.callbackScheme)
        headers[.location] = location
        return Response(status: .seeOther, headers: headers)
    }

    private func challengePage(_ parameters: WebChallengeParameters, error: String?, status: HTTPResponse.Status) throws -> Response {
        let ticket = AppVerificationTicket(
            purpose: .puzzle, projectID: verifier.node.settings.projectID, issuedAt: verifier.node.clock.now().wholeSecond,
            nonce: verifier.node.random.bytes(AppVerificationTicket.nonceLength))
        let form = ChallengePage.Form(
            action: Self.handlerPath, hidden: parameters.hidden, puzzle: try ticket.seal(key: verifier.secret.appVerificationKey),
            difficulty: ProofOfWork.difficulty, appName: verifier.node.appName, language: parameters.language, error: error)
        return Self.htmlPage(ChallengePage.challenge(form), scheme: parameters.callbackScheme, status: status)
    }

    /// An HTML answer that is never cached, framed, or leaks its URL as a referrer, under the challenge's policy.
    static func htmlPage(_ html: String, scheme: String?, status: HTTPResponse.Status) -> Response {
        var headers = strictHeaders(scheme: scheme)
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func strictHeaders(scheme: String?) -> HTTPFields {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[.contentSecurityPolicy] = ChallengePage.contentSecurityPolicy(callbackScheme: scheme)
        return headers
    }
}
