import FlintCore

/// The auth event the Firebase JS SDK reads from its iframe (`AuthEvent` in firebase-js-sdk's
/// `model/popup_redirect.ts`): `{type, eventId, urlResponse, sessionId, postBody, tenantId, error?}`. `type` is the
/// start's `authType`; on success `urlResponse` is the callback link the SDK sends to `signInWithIdp` as `requestUri`,
/// beside `sessionId`, which the hand-over page's script fills in from the tab's `sessionStorage` (Flint never writes
/// the raw session ID into an answer after the start). An error names its `auth/…` code, which the SDK throws.
struct AuthEvent: Sendable {
    var type: String
    /// The SDK's event ID; empty (sent as `null`) for `signInWithRedirect`, which names none.
    var eventID: String
    var urlResponse: String?
    /// The tenant the sign-in ran in (the start's `tid`), which the SDK sends with `signInWithIdp`; empty (sent as
    /// `null`) for the project's own users.
    var tenantID: String
    var error: (code: String, message: String)?

    init(type: String, eventID: String, urlResponse: String? = nil, tenantID: String = "", error: (code: String, message: String)? = nil) {
        (self.type, self.eventID, self.urlResponse, self.tenantID, self.error) = (type, eventID, urlResponse, tenantID, error)
    }

    /// The event as JSON text, `sessionId` and `postBody` `null`.
    var json: String {
        var object: [String: JSONValue] = [
            "type": .string(type), "eventId": eventID.isEmpty ? .null : .string(eventID), "urlResponse": urlResponse.map(JSONValue.string) ?? .null,
            "sessionId": .null, "postBody": .null, "tenantId": tenantID.isEmpty ? .null : .string(tenantID),
        ]
        if let error { object["error"] = ["code": .string(error.code), "message": .string(error.message)] }
        return String(decoding: JSONValue.object(object).serialized(sortingKeys: true), as: UTF8.self)
    }
}
