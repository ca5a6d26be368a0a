import FlintCore
import FlintStore
import FlintTexts
import HTTPTypes
import Hummingbird

extension FlintRequestContext {
    /// A client endpoint's way in: the caller is a client (API key) or the operator, then the body is decoded as
    /// `Wire` with Firebase's error answers.
    func clientBody<Wire: Decodable>(_ request: Request, as type: Wire.Type) async throws -> Wire {
        try requireClient()
        return try await request.decode(as: type, context: self)
    }

    /// The same for an endpoint that also serves the Admin SDKs' `v1/projects/{project}/…` path: on that path the
    /// caller must be the operator of `projectID` (``checkAdminPath(projectID:)``).
    func clientBody<Wire: Decodable>(_ request: Request, as type: Wire.Type, projectID: String) async throws -> Wire {
        try requireClient()
        try checkAdminPath(projectID: projectID)
        return try await request.decode(as: type, context: self)
    }
}

extension Request {
    /// The locales a text or page sent for this request is written in, best first: `X-Firebase-Locale` (the SDKs'
    /// `languageCode`), then `Accept-Language`.
    var answerLocales: [String] {
        LocaleNegotiation.candidates(firebaseLocale: headers[.firebaseLocale], acceptLanguage: headers[.acceptLanguage])
    }
}

extension HTTPField.Name {
    /// `X-Firebase-Locale`, the client's `languageCode`.
    static let firebaseLocale = HTTPField.Name("X-Firebase-Locale")!
}

extension HTTPField.Name {
    /// `X-Client-Version`, where the Firebase SDKs name themselves (`iOS/FirebaseSDK/10.29.0/FirebaseCore-iOS`).
    static let clientVersion = HTTPField.Name("X-Client-Version")!
}
