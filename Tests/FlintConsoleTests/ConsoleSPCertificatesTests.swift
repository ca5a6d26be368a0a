import FlintCore
import Testing

@testable import FlintConsole

/// The SAML provider page's SP certificates during a key rollover: the first (the signing key's, as the admin API
/// answers them) marked as signing, a later one as new or previous by its expiry against the signing one's.
@Suite("console: a SAML provider's SP certificates, which one signs")
struct ConsoleSPCertificatesTests {
    static func certificate(_ pem: String, expires: String) -> JSONValue {
        ["x509Certificate": .string(pem), "expiresAt": .string(expires)]
    }

    @Test("before the activation the new one is marked new, after it the old one previous; one alone signs")
    func roles() {
        let old = Self.certificate("OLD", expires: "2036-01-01T00:00:00Z")
        let new = Self.certificate("NEW", expires: "2036-02-01T00:00:00Z")
        let staged = ConsoleIdentityProviders.spCertificates([old, new])
        #expect(staged.map { $0["pem"] as? String } == ["OLD", "NEW"])
        #expect(staged.map { $0["role"] as? String } == ["Signs the authentication requests", "New: published, signs once activated"])
        #expect(staged.map { $0["domID"] as? String } == ["spCertificate", "spCertificate-2"])
        let activated = ConsoleIdentityProviders.spCertificates([new, old])
        #expect(
            activated.map { $0["role"] as? String } == ["Signs the authentication requests", "Previous: no longer signs, published until retired"])
        #expect(ConsoleIdentityProviders.spCertificates([old]).map { $0["signing"] as? Bool } == [true])
        let resource: [String: JSONValue] = ["spConfig": ["spCertificates": [old, new]]]
        let data = ConsoleIdentityProviders.data("saml.corp", .saml, resource: resource, publicBaseURL: "https://auth.example")
        #expect(data["hasSPCertificates"] as? Bool == true && (data["spCertificates"] as? [[String: Any]])?.count == 2)
        #expect(
            ConsoleIdentityProviders.data("saml.corp", .saml, resource: [:], publicBaseURL: "https://auth.example")["hasSPCertificates"] as? Bool
                == false)
    }
}
