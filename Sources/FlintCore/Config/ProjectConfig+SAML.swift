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

    /// Whether `pem` holds one X.509 certificate in PEM (`-----BEGIN CERTIFICATE-----`).
    static func isCertificate(_ pem: String) -> Bool {
        guard pem.utf8.count <= 16384 else { return false }
        return (try? Certificate(pemEncoded: pem)) != nil
    }

    private static func requireURL(_ value: JSONValue?, _ path: String) throws(AuthError) {
        guard let text = value?.stringValue, text.utf8.count <= 2048, let url = ContinueURL(text), url.scheme == "https" || url.scheme == "http"
        else { throw invalid("\(path) must be an absolute http(s) URL") }
    }
}
