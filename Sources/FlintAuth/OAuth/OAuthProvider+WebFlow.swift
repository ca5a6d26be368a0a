import Foundation

/// The web sign-in, as FirebaseAuth's `OAuthProvider.getCredentialWith`: the hosted handler
/// (`/__/auth/handler?authType=signInWithRedirect…`, `/emulator/auth/handler` under `useEmulator`) opens in the
/// browser `uiDelegate` presents, sends the user to the provider, and comes back through the app's URL scheme
/// (`<scheme>://firebaseauth/link?deep_link_id=…`, passed to `Auth.canHandle(_:)`); the credential then carries the
/// callback's link and the session ID, which `signInWithIdp` needs together.
extension OAuthProvider: FederatedAuthProvider {
    /// Runs the web sign-in and returns its credential, to sign in, link or re-authenticate with.
    /// - Parameter uiDelegate: what presents the page (`nil`: the key window on UIKit; required elsewhere).
    /// - Throws: `webContextCancelled` when the page was closed or a newer one replaced it, `missingClientIdentifier`
    ///   without `FlintOptions.clientID` or `googleAppID`, the callback's error (`webSignInUserInteractionFailure`
    ///   with the provider's refusal, `webInternalError`…), `internalError` when nothing can present the page.
    public func credential(with uiDelegate: (any AuthUIDelegate)?) async throws -> AuthCredential {
        let presenter = AppVerificationPresenter(delegate: uiDelegate)
        guard presenter.canPresent else {
            throw AuthErrorCode.internalError.error(detail: "The provider's sign-in page needs an AuthUIDelegate to open it on this platform.")
        }
        let options = auth.flintApp.options
        let client = try AppVerifier.callbackClient(options: options)
        let eventID = AppVerifier.newEventID()
        let sessionID = Self.newSessionID()
        let url = try await handlerURL(eventID: eventID, sessionID: sessionID, client: client.item)
        let verifier = auth.appVerifier
        let callback: URL
        do {
            callback = try await verifier.awaitCallback(eventID: eventID, scheme: client.scheme, authType: "signInWithRedirect") { id in
                await presenter.present(url, onClose: { verifier.cancelPresentation(id: id) })
            }
        } catch {
            await presenter.dismiss()
            throw error
        }
        await presenter.dismiss()
        let link = try Self.responseLink(callback)
        return OAuthCredential(providerID: providerID, sessionID: sessionID, responseURL: link)
    }

    /// ``credential(with:)`` under the name of FirebaseAuth's completion form.
    public func getCredentialWith(_ uiDelegate: (any AuthUIDelegate)?) async throws -> AuthCredential {
        try await credential(with: uiDelegate)
    }

    /// Runs the web sign-in; `completion` gets the credential or the error, on the main queue.
    public func getCredentialWith(_ uiDelegate: (any AuthUIDelegate)?, completion: ((AuthCredential?, (any Error)?) -> Void)?) {
        deliver(completion) { try await self.credential(with: uiDelegate) }
    }

    /// The hosted handler's URL for one sign-in: the app (`ibi`, `clientId` or `appId`), the SHA-256 of the session
    /// ID, the event, the provider, the tenant (`tid`), the provider's scopes and custom parameters, the language.
    func handlerURL(eventID: String, sessionID: String, client: URLQueryItem) async throws -> URL {
        let configuration = auth.backend.configuration.current
        let base =
            if let emulator = configuration.emulatorHost {
                "http://\(emulator)/emulator/auth/handler"
            } else {
                String(try await auth.authDomainRoot().reversed().drop { $0 == "/" }.reversed()) + "/__/auth/handler"
            }
        let options = auth.flintApp.options
        var items = [
            URLQueryItem(name: "apiKey", value: options.apiKey), URLQueryItem(name: "authType", value: "signInWithRedirect"),
            URLQueryItem(name: "ibi", value: options.bundleID ?? Bundle.main.bundleIdentifier ?? ""),
            URLQueryItem(name: "sessionId", value: SHA256Hex.digest(sessionID)), URLQueryItem(name: "v", value: "FlintAuth/1.0"),
            URLQueryItem(name: "eventId", value: eventID), URLQueryItem(name: "providerId", value: providerID), client,
        ]
        if let tenantID = auth.tenantID { items.append(URLQueryItem(name: "tid", value: tenantID)) }
        if let scopes, !scopes.isEmpty { items.append(URLQueryItem(name: "scopes", value: scopes.joined(separator: ","))) }
        if let customParameters, !customParameters.isEmpty {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            items.append(URLQueryItem(name: "customParameters", value: String(decoding: try encoder.encode(customParameters), as: UTF8.self)))
        }
        if let language = auth.languageCode, !language.isEmpty { items.append(URLQueryItem(name: "hl", value: language)) }
        var components = URLComponents(string: base)
        components?.percentEncodedQuery = FormEncoding.encode(items.map { ($0.name, $0.value ?? "") })
        guard let url = components?.url else { throw AuthErrorCode.internalError.error(detail: "The sign-in page's URL could not be built.") }
        return url
    }

    /// The provider's response in an accepted callback (the inner URL's `link`), or the error it reports instead.
    static func responseLink(_ callback: URL) throws -> String {
        let outer = URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let deepLink = outer.first { $0.name == "deep_link_id" }?.value ?? ""
        let items = URLComponents(string: deepLink)?.queryItems ?? []
        if let link = items.first(where: { $0.name == "link" })?.value, !link.isEmpty { return link }
        throw AppVerifier.firebaseError(items)
            ?? AuthErrorCode.webSignInUserInteractionFailure.error(detail: "SignIn failed with unparseable firebaseError")
    }

    /// A random session ID: 32 letters and digits.
    static func newSessionID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<32).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] })
    }
}
