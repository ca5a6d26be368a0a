/// What a verified provider ID token says about its user, read as Firebase reads it.
package struct ProviderProfile: Sendable, Equatable {
    /// `sub`: the user's ID at the provider (`rawId`).
    package var rawID: String
    /// `email`, lower-cased.
    package var email: String?
    /// `email_verified`, which Apple sends as the string `"true"` / `"false"` and others as a boolean.
    package var emailVerified: Bool
    /// `name`, or the first and last names joined.
    package var displayName: String?
    /// `given_name`, or the first name the app sent (Apple gives the name only to the app, at the first sign-in).
    package var firstName: String?
    /// `family_name`, or the last name the app sent.
    package var lastName: String?
    /// `picture`.
    package var photoURL: String?
    /// Apple's `is_private_email`: the address is a private relay.
    package var isPrivateEmail: Bool
    /// The user's handle at the provider (Twitter's screen name, GitHub's login): `screen_name` of a pending token's
    /// claims; ID tokens have none.
    package var screenName: String? = nil

    /// Reads the claims of a verified token.
    /// - Parameters:
    ///   - claims: the token's payload.
    ///   - appName: the first and last names the app sent in `postBody`'s `user` (Sign in with Apple).
    package init(claims: [String: JSONValue], appName: (firstName: String?, lastName: String?) = (nil, nil)) {
        rawID = claims["sub"]?.stringValue ?? ""
        email = claims["email"]?.stringValue.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        emailVerified = email != nil && Self.flag(claims["email_verified"])
        isPrivateEmail = Self.flag(claims["is_private_email"])
        firstName = claims["given_name"]?.stringValue ?? appName.firstName
        lastName = claims["family_name"]?.stringValue ?? appName.lastName
        photoURL = claims["picture"]?.stringValue
        screenName = claims["screen_name"]?.stringValue
        let joined = [firstName, lastName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        displayName = claims["name"]?.stringValue ?? (joined.isEmpty ? nil : joined)
    }

    /// A claim that is `true` or `"true"`.
    static func flag(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let b)?: b
        case .string(let s)?: s.lowercased() == "true"
        default: false
        }
    }

    /// The names the iOS SDK sends for Sign in with Apple in `postBody`'s `user`: `{"name":{"firstName":…,"lastName":…}}`.
    package static func appName(fromUserJSON text: String?) -> (firstName: String?, lastName: String?) {
        guard let text, let user = try? JSONValue(parsing: Array(text.utf8)), let name = user["name"] else { return (nil, nil) }
        return (name["firstName"]?.stringValue, name["lastName"]?.stringValue)
    }
}
