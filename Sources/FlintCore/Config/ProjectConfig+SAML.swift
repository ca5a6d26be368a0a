import SwiftASN1
import X509

/// A SAML provider's resource (`inboundSamlConfigs`), as Identity Platform's v2 API shapes it:
/// `{"enabled": true, "displayName": "…", "idpConfig": {"idpEntityId": "…", "ssoUrl": "https://…",
/// "idpCertificates": [{"x509Certificate": "-----BEGIN CERTIFICATE-----…"}], "signRequest": false},
/// "spConfig": {"spEntityId": "…", "callbackUri": "https://…/__/auth/handler"}}`. `spConfig.spCertificates` is output
/// only (the admin API drops it from what a request writes).
extension ProjectConfig {
    /// Checks a SAML resource: the IdP's entity ID, an absolute http(s) SSO URL and at least one certificate that
    /// parses as an X.509 PEM certificate; the relying party's entity ID and an absolute http(s) callback URL.
    /// - Throws: ``AuthError`` `MISSING_SAML_RELYING_PARTY_CONFIG` without `spConfig.spEntityId`, else `INVALID_CONFIG`
    ///   naming the field.
    static func validateSAML(_ fields: [String: JSONValue], path: String) throws(AuthError) {
        guard let idp = fields["idpConfig"]?.objectValue else { throw invalid("\(path).idpConfig is required") }
        guard let entityID = idp["idpEntityId"]?.stringValue, !entityID.isEmpty, entityID.utf8.count <= 1024 else {
            throw invalid("\(path).idpConfig.idpEntityId is required")
        }
        try requireURL(idp["ssoUrl"], "\(path).idpConfig.ssoUrl")
        guard let certificates = idp["idpCertificates"]?.arrayValue, !certificates.isEmpty else {
            throw invalid("\(path).idpConfig.idpCertificates must list at least one certificate")
        }
        for (index, entry) in certificates.enumerated() {
            guard let pem = entry["x509Certificate"]?.stringValue, isCertificate(pem) else {
                throw invalid("\(path).idpConfig.idpCertificates[\(index)].x509Certificate must be an X.509 certificate in PEM")
            }
        }
        if let sign = idp["signRequest"], sign.boolValue == nil { throw invalid("\(path).idpConfig.signRequest must be a boolean") }
        guard let sp = fields["spConfig"]?.objectValue, let spEntityID = sp["spEntityId"]?.stringValue, !spEntityID.isEmpty else {
            throw AuthError.missingSAMLRelyingPartyConfig.with(detail: "\(path).spConfig.spEntityId is required")
        }
        guard spEntityID.utf8.count <= 1024 else { throw invalid("\(path).spConfig.spEntityId is too long") }
        try requireURL(sp["callbackUri"], "\(path).spConfig.callbackUri")
    }

    /// Whether `pem` holds one X.509 certificate in PEM (`-----BEGIN CERTIFICATE-----`): a certificate's structure in
    /// DER (the signed part with its serial number, algorithm, issuer, validity, subject and key; the signature's
    /// algorithm; the signature). The key itself is not built here: Identity Platform takes an IdP's certificate
    /// whatever its RSA key size — firebase-admin's own integration tests configure a 1024-bit one, which
    /// swift-certificates refuses to build — and a response's signature is checked by libxmlsec1 against the
    /// certificate as given.
    static func isCertificate(_ pem: String) -> Bool {
        guard pem.utf8.count <= 16384, let document = try? PEMDocument(pemString: pem), document.discriminator == "CERTIFICATE" else {
            return false
        }
        if (try? Certificate(derEncoded: document.derBytes)) != nil { return true }
        guard let root = try? DER.parse(document.derBytes), root.identifier == .sequence, case .constructed(let parts) = root.content else {
            return false
        }
        let certificate = Array(parts)
        guard certificate.count == 3, certificate[1].identifier == .sequence, certificate[2].identifier == .bitString,
            certificate[0].identifier == .sequence, case .constructed(let signed) = certificate[0].content
        else { return false }
        // [0] version (absent for v1), serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, …
        let fields = Array(signed)
        let first = fields.first?.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) ? 1 : 0
        guard fields.count >= first + 6, fields[first].identifier == .integer else { return false }
        return (1...5).allSatisfy { fields[first + $0].identifier == .sequence }
    }

    private static func requireURL(_ value: JSONValue?, _ path: String) throws(AuthError) {
        guard let text = value?.stringValue, text.utf8.count <= 2048, let url = ContinueURL(text), url.scheme == "https" || url.scheme == "http"
        else { throw invalid("\(path) must be an absolute http(s) URL") }
    }
}
