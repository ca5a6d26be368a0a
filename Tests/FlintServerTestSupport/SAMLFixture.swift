package import FlintCore
import Foundation

/// A SAML identity provider's configuration for tests: a self-signed EC certificate (`CN=idp.flint.test`, valid to
/// 2126) and a complete `inboundSamlConfigs` body.
package enum SAMLFixture {
    /// The certificate's PEM, from `Tests/Fixtures/saml/idp-certificate.pem` (the console's browser test reads the same
    /// file); empty when the file cannot be read, which fails every test that uses it.
    package static let certificate =
        ((try? String(contentsOf: Documentation.root.appendingPathComponent("Tests/Fixtures/saml/idp-certificate.pem"), encoding: .utf8))
        ?? "").trimmingCharacters(in: .whitespacesAndNewlines)

    /// A whole SAML provider resource, as `create_saml_provider_config` sends it.
    package static func resource(
        idpEntityID: String = "https://idp.example/entity", ssoURL: String = "https://idp.example/sso",
        certificates: [String] = [certificate], spEntityID: String? = "flint-sp",
        callbackURI: String = "https://app.example/__/auth/handler"
    ) -> JSONValue {
        var sp: [String: JSONValue] = ["callbackUri": .string(callbackURI)]
        sp["spEntityId"] = spEntityID.map(JSONValue.string)
        return [
            "displayName": "Corp SAML", "enabled": true,
            "idpConfig": [
                "idpEntityId": .string(idpEntityID), "ssoUrl": .string(ssoURL),
                "idpCertificates": .array(certificates.map { ["x509Certificate": .string($0)] }),
            ],
            "spConfig": .object(sp),
        ]
    }

    /// ``resource(idpEntityID:ssoURL:certificates:spEntityID:callbackURI:)``'s JSON text.
    package static func body(_ resource: JSONValue = resource()) -> String {
        String(decoding: resource.serialized(), as: UTF8.self)
    }
}
