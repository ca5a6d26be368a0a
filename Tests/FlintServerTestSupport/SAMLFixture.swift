package import FlintCore

/// A SAML identity provider's configuration for tests: a self-signed EC certificate (`CN=idp.flint.test`, valid to
/// 2126) and a complete `inboundSamlConfigs` body.
package enum SAMLFixture {
    package static let certificate = """
        -----BEGIN CERTIFICATE-----
        MIIBiDCCAS+gAwIBAgIUJPrFi5Q86jyRhQwCEpWpUJGtm9swCgYIKoZIzj0EAwIw
        GTEXMBUGA1UEAwwOaWRwLmZsaW50LnRlc3QwIBcNMjYxMTI5MDcyNjIyWhgPMjEy
        NjExMDUwNzI2MjJaMBkxFzAVBgNVBAMMDmlkcC5mbGludC50ZXN0MFkwEwYHKoZI
        zj0CAQYIKoZIzj0DAQcDQgAENrU9rEAWdmyBpmbbghcMRhaNqWtPhiEk49PY/69G
        r+nbVlzKDZCa2noFNQzYh3srUcCGWhmLSF6mVg3wN33296NTMFEwHQYDVR0OBBYE
        FJXlk9GcUO19BjAluCQpFlluAALZMB8GA1UdIwQYMBaAFJXlk9GcUO19BjAluCQp
        FlluAALZMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDRwAwRAIgVoT44ZkB
        bOL9i36FhbHc4FEdZO25w85vU/Hl4ZU63rgCIDTXBftQ93DSWrr8nnOaP4+W0ynE
        PcR62MxBjOh+8skH
        -----END CERTIFICATE-----
        """

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
