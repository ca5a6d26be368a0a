import Foundation

/// A credential a user signs in, links or re-authenticates with.
public class AuthCredential: @unchecked Sendable {
    // Immutable after init; subclasses add only constants.

    /// The provider ID, such as `password`.
    public let provider: String

    init(provider: String) { self.provider = provider }
}

/// An email credential: a password or an emailed sign-in link.
public final class EmailAuthCredential: AuthCredential, @unchecked Sendable {
    enum Secret: Sendable {
        case password(String)
        case link(String)
    }

    /// The email address.
    public let email: String
    let secret: Secret

    init(email: String, secret: Secret) {
        self.email = email
        self.secret = secret
        super.init(provider: EmailAuthProvider.id)
    }
}

extension EmailAuthCredential {
    /// A credential for an email and the sign-in link emailed to it — the spelling of FirebaseAuth's email-link
    /// guide; the same as `EmailAuthProvider.credential(withEmail:link:)`.
    public static func credential(withEmail email: String, link: String) -> AuthCredential {
        EmailAuthProvider.credential(withEmail: email, link: link)
    }
}

/// Builds email credentials.
public enum EmailAuthProvider {
    /// The provider ID, `password`.
    public static let id = "password"

    /// A credential for an email and password.
    public static func credential(withEmail email: String, password: String) -> AuthCredential {
        EmailAuthCredential(email: email, secret: .password(password))
    }

    /// A credential for an email and the sign-in link emailed to it.
    public static func credential(withEmail email: String, link: String) -> AuthCredential {
        EmailAuthCredential(email: email, secret: .link(link))
    }
}

/// The sign-in method `fetchSignInMethods(forEmail:)` lists for an email with a password.
public let EmailPasswordAuthSignInMethod = "password"
/// The sign-in method `fetchSignInMethods(forEmail:)` lists for an email that signed in with a link.
public let EmailLinkAuthSignInMethod = "emailLink"

/// The query items of an action link, as FirebaseAuth reads them (`AuthWebUtils.parseURL`): the query, as
/// `URLComponents` decodes it, split on `&`, each item at its first `=`, key and value percent-decoded once more;
/// when that yields nothing, the query itself is read as a link.
func actionLinkParameters(_ link: String) -> [String: String] {
    let items = queryItems(link)
    if items.isEmpty, let query = URLComponents(string: link)?.query { return queryItems(query) }
    return items
}

private func queryItems(_ link: String) -> [String: String] {
    guard let query = URLComponents(string: link)?.query else { return [:] }
    var items: [String: String] = [:]
    for component in query.components(separatedBy: "&") {
        guard let equals = component.range(of: "="),
            let key = component[..<equals.lowerBound].removingPercentEncoding,
            let value = component[equals.upperBound...].removingPercentEncoding
        else { continue }
        items[key] = value
    }
    return items
}
