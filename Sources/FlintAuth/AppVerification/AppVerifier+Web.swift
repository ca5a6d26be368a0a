import Foundation

/// The web challenge: its URL, waiting for the callback, and reading the callback (FirebaseAuth's
/// `reCAPTCHAURL(withEventID:)`, `AuthWebUtils.isExpectedCallbackURL` and its callback parsing).
extension AppVerifier {
    /// The app's callback URL scheme and how the challenge URL names the app: the reversed client ID with
    /// `clientId`, else `app-<googleAppID with : as ->` with `appId`.
    static func callbackClient(options: FlintOptions) throws -> (scheme: String, item: URLQueryItem) {
        if let clientID = options.clientID, !clientID.isEmpty {
            return (clientID.split(separator: ".").reversed().joined(separator: "."), URLQueryItem(name: "clientId", value: clientID))
        }
        if let appID = options.googleAppID, !appID.isEmpty {
            return ("app-" + appID.replacingOccurrences(of: ":", with: "-"), URLQueryItem(name: "appId", value: appID))
        }
        throw AuthErrorCode.missingClientIdentifier.error(
            detail: "App verification's web challenge needs FlintOptions.clientID or googleAppID to return to the app.")
    }

    /// Ten random letters A-Z, naming one challenge.
    static func newEventID() -> String {
        String((0..<10).map { _ in Character(Unicode.Scalar(UInt8.random(in: 65...90))) })
    }

    /// The challenge's URL under `root` (`https://auth.example.com`).
    static func challengeURL(
        root: String, apiKey: String, bundleID: String, eventID: String, client: URLQueryItem, language: String?
    ) -> URL? {
        var trimmed = root
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        var components = URLComponents(string: trimmed + "/__/auth/handler")
        var items = [
            URLQueryItem(name: "apiKey", value: apiKey), URLQueryItem(name: "authType", value: "verifyApp"),
            URLQueryItem(name: "ibi", value: bundleID), URLQueryItem(name: "v", value: "FlintAuth/1.0"),
            URLQueryItem(name: "eventId", value: eventID), client,
        ]
        if let language, !language.isEmpty { items.append(URLQueryItem(name: "hl", value: language)) }
        components?.queryItems = items
        return components?.url
    }

    /// Whether `url` is the callback of the page `eventID`: exactly `<scheme>://firebaseauth/link` once query
    /// and fragment are removed, with a `deep_link_id` whose query has this `authType` and `eventId`.
    static func isExpectedCallbackURL(_ url: URL, scheme: String, eventID: String, authType: String = "verifyApp") -> Bool {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return false }
        let query = components.queryItems ?? []
        components.query = nil
        components.fragment = nil
        guard let bare = components.string, bare.caseInsensitiveCompare("\(scheme)://firebaseauth/link") == .orderedSame else { return false }
        guard let deepLink = query.first(where: { $0.name == "deep_link_id" })?.value, let inner = URLComponents(string: deepLink) else {
            return false
        }
        let items = inner.queryItems ?? []
        return items.first { $0.name == "authType" }?.value == authType && items.first { $0.name == "eventId" }?.value == eventID
    }

    /// The token of an accepted callback, or the error it reports (`firebaseError`, a JSON `{code, message}`).
    static func callbackResult(_ url: URL) -> Result<String, NSError> {
        let outer = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let deepLink = outer.first { $0.name == "deep_link_id" }?.value ?? ""
        let items = URLComponents(string: deepLink)?.queryItems ?? []
        if let token = items.first(where: { $0.name == "recaptchaToken" })?.value, !token.isEmpty { return .success(token) }
        return .failure(firebaseError(items) ?? AuthErrorCode.appVerificationUserInteractionFailure.error())
    }

    /// The error a callback's `firebaseError` (a JSON `{code, message}`) reports, as FirebaseAuth maps it; `nil` when
    /// there is none that parses.
    static func firebaseError(_ items: [URLQueryItem]) -> NSError? {
        guard let text = items.first(where: { $0.name == "firebaseError" })?.value, let data = text.data(using: .utf8),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], let code = object["code"] as? String
        else { return nil }
        let message = object["message"] as? String ?? ""
        switch code {
        case "auth/invalid-oauth-client-id": return AuthErrorCode.invalidClientID.error(detail: message)
        case "auth/network-request-failed": return AuthErrorCode.webNetworkRequestFailed.error(detail: message)
        case "auth/internal-error": return AuthErrorCode.webInternalError.error(detail: message)
        default: return AuthErrorCode.webSignInUserInteractionFailure.error(detail: "[\(code)] - \(message)")
        }
    }

    /// Registers the page `eventID` (the challenge, or with `authType` `signInWithRedirect` a provider's sign-in),
    /// runs `present`, and waits for its callback URL (`canHandle(_:)`). A newer page, ``cancelPresentation(id:)`` or
    /// task cancellation ends the wait with `webContextCancelled`.
    func awaitCallback(
        eventID: String, scheme: String, authType: String = "verifyApp", present: @escaping @Sendable (UUID) async -> Void
    ) async throws -> URL {
        let id = UUID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
                let previous = state.withLock { state -> Presentation? in
                    let previous = state.presentation
                    state.presentation = Presentation(
                        id: id, eventID: eventID, callbackScheme: scheme, authType: authType, continuation: continuation)
                    return previous
                }
                previous?.continuation.resume(throwing: AuthErrorCode.webContextCancelled.error())
                if Task.isCancelled {
                    cancelPresentation(id: id)
                    return
                }
                Task { await present(id) }
            }
        } onCancel: {
            self.cancelPresentation(id: id)
        }
    }

    /// Ends the challenge `id` with `webContextCancelled` (the user closed it, or the caller gave up).
    func cancelPresentation(id: UUID) {
        let presentation = state.withLock { state -> Presentation? in
            guard state.presentation?.id == id else { return nil }
            defer { state.presentation = nil }
            return state.presentation
        }
        presentation?.continuation.resume(throwing: AuthErrorCode.webContextCancelled.error())
    }

    /// FirebaseAuth's `canHandle(url)`: true only while a page waits and `url` is its callback; the waiting
    /// `verifyPhoneNumber` or `getCredentialWith` then continues.
    func canHandle(_ url: URL) -> Bool {
        let presentation = state.withLock { state -> Presentation? in
            guard let presentation = state.presentation,
                Self.isExpectedCallbackURL(
                    url, scheme: presentation.callbackScheme, eventID: presentation.eventID, authType: presentation.authType)
            else { return nil }
            state.presentation = nil
            return presentation
        }
        guard let presentation else { return false }
        presentation.continuation.resume(returning: url)
        return true
    }
}
