import Crypto
import CryptoExtras
import FlintCore
import FlintSAMLTestSupport
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Logging
import SwiftASN1
import Testing
import X509

@testable import FlintServer

/// A SAML provider's service-provider key pair: its certificate answered as `spConfig.spCertificates`, its key signing
/// the AuthnRequests of a provider whose IdP wants them signed (`idpConfig.signRequest`).
@Suite("SAML SP key pairs: spConfig.spCertificates and signed AuthnRequests")
struct SAMLSPKeyTests {
    /// The first SP certificate a provider resource carries.
    static func spCertificate(_ resource: JSONValue?) -> String? {
        resource?["spConfig"]?["spCertificates"]?.arrayValue?.first?["x509Certificate"]?.stringValue
    }

    /// The RSA public key of a PEM certificate.
    static func publicKey(_ pem: String) throws -> _RSA.Signing.PublicKey {
        let certificate = try Certificate(pemEncoded: pem)
        return try #require(_RSA.Signing.PublicKey(certificate.publicKey))
    }

    /// Whether the certificate verifies an HTTP-Redirect URL's `Signature`: RSA-SHA256 over its query up to and
    /// including `SigAlg`, as sent (SAML bindings, 3.4.4.1).
    static func verifies(_ location: String, certificate pem: String) throws -> Bool {
        let parts = try #require(location.split(separator: "?", maxSplits: 1).last).split(separator: "&")
        let signed = parts.filter { !$0.hasPrefix("Signature=") }.joined(separator: "&")
        let encoded = try #require(parts.first { $0.hasPrefix("Signature=") }?.dropFirst("Signature=".count))
        let base64 = try #require(String(encoded).removingPercentEncoding)
        let signature = try #require(Data(base64Encoded: base64))
        return try publicKey(pem).isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: Data(signed.utf8)), padding: .insecurePKCS1v1_5)
    }

    @Test(
        "a SAML provider gets its own SP certificate when created: the same in every answer, output only, apart per provider and tenant",
        arguments: StoreEngine.all)
    func certificates(_ engine: StoreEngine) async throws {
        try await engine.withNode(try await engine.freshLocation(), key: MasterKey.generate()) { api in
            let created = try await api.admin(.post, "\(Path.samlIdps)?inboundSamlConfigId=saml.corp", body: SAMLFixture.body())
            let pem = try #require(Self.spCertificate(created.json), "\(created.text)")
            #expect(try Self.publicKey(pem).keySizeInBits == 2048)
            let certificate = try Certificate(pemEncoded: pem)
            #expect(certificate.signatureAlgorithm == .sha256WithRSAEncryption && certificate.issuer == certificate.subject)
            #expect(certificate.notValidAfter > Date().addingTimeInterval(9 * 365 * 86_400))
            #expect(created["spConfig"]?["spCertificates"]?.arrayValue?.first?["expiresAt"]?.stringValue?.hasSuffix("Z") == true)
            #expect(Self.spCertificate(try await api.admin(.get, "\(Path.samlIdps)/saml.corp").json) == pem)
            // Output only: a patch that sends certificates keeps the provider's, under any mask.
            for mask in ["displayName", "spConfig"] {
                let patched = try await api.admin(
                    .patch, "\(Path.samlIdps)/saml.corp?updateMask=\(mask)",
                    body:
                        #"{"displayName":"Corp","spConfig":{"spEntityId":"flint-sp","callbackUri":"https://app.example/cb","spCertificates":[{"x509Certificate":"mine"}]}}"#
                )
                #expect(patched.status == .ok && Self.spCertificate(patched.json) == pem, "\(patched.text)")
            }
            let other = try await api.admin(.post, "\(Path.samlIdps)?inboundSamlConfigId=saml.b", body: SAMLFixture.body())
            let otherPEM = try #require(Self.spCertificate(other.json))
            #expect(otherPEM != pem, "one key pair per provider")
            let listed = try await api.admin(.get, "\(Path.samlIdps)?pageSize=10")["inboundSamlConfigs"]?.arrayValue ?? []
            #expect(listed.map { Self.spCertificate($0) } == [otherPEM, pem], "listed in ID order, each with its own")
            // A tenant's provider of the same ID has a key pair of its own.
            let tenant = try await TenantTests.create(api, #"{"displayName":"Acme"}"#)
            let base = "\(TenantIdpConfigTests.tenants)/\(tenant)/inboundSamlConfigs"
            let inTenant = try await api.admin(.post, "\(base)?inboundSamlConfigId=saml.corp", body: SAMLFixture.body())
            let tenantPEM = try #require(Self.spCertificate(inTenant.json), "\(inTenant.text)")
            #expect(tenantPEM != pem && tenantPEM != otherPEM)
            #expect(Self.spCertificate(try await api.admin(.get, "\(base)/saml.corp").json) == tenantPEM)
            #expect(Self.spCertificate(try await api.admin(.get, "\(Path.samlIdps)/saml.corp").json) == pem)
        }
    }

    @Test("with signRequest the handler's and createAuthUri's AuthnRequests carry SigAlg and a Signature the SP certificate verifies")
    func signedRequests() async throws {
        try await withFlint { api in
            try await api.allowApp()
            try await api.configureSAML()
            try await api.configureSAML("saml.other")
            let plain = try #require(try await api.handler(API.redirectQuery("saml.corp", sessionID: "s1")).headers[.location])
            #expect(queryItems(of: plain)["SigAlg"] == nil && queryItems(of: plain)["Signature"] == nil, "unsigned unless asked")
            let patched = try await api.admin(
                .patch, "\(Path.samlIdps)/saml.corp?updateMask=idpConfig.signRequest", body: #"{"idpConfig":{"signRequest":true}}"#)
            let pem = try #require(Self.spCertificate(patched.json), "\(patched.text)")
            let otherPEM = try #require(Self.spCertificate(try await api.admin(.get, "\(Path.samlIdps)/saml.other").json))
            let start = try await api.handler(API.redirectQuery("saml.corp", sessionID: "s2"))
            #expect(start.status == .seeOther, "\(start.text)")
            let location = try #require(start.headers[.location])
            #expect(queryItems(of: location)["SigAlg"] == "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")
            #expect(try Self.verifies(location, certificate: pem))
            #expect(try !Self.verifies(location, certificate: otherPEM), "another provider's key did not sign it")
            let altered = location.replacingOccurrences(of: "&SigAlg=", with: "x&SigAlg=")
            #expect(try !Self.verifies(altered, certificate: pem), "the signature covers the RelayState as sent")
            // The signed start's sign-in completes as any other.
            let (requestID, relayState) = try API.samlRequest(at: location)
            let callback = try RedirectCallback(
                try await api.postSAML(try signed(samlResponse(to: requestID, now: api.clock.now())), relayState: relayState))
            let reply = try await api.completeRedirect(link: callback.link, sessionID: "s2", providerID: "saml.corp")
            #expect(reply.status == .ok && reply.string("providerId") == "saml.corp", "\(reply.text)")
            // createAuthUri's authUri is signed alike.
            let authURI = try await api.postJSON(
                Path.createAuthURI, ["providerId": "saml.corp", "continueUri": "http://localhost/done", "sessionId": "app-session"])
            let uri = try #require(authURI.string("authUri"), "\(authURI.text)")
            #expect(try Self.verifies(uri, certificate: pem))
        }
    }

    @Test("SP keys are sealed with the master key, each bound to its provider and tenant, rewrapped, counted by doctor")
    func sealedAndRewrapped() async throws {
        let path = temporaryDatabasePath()
        let store = try await SQLiteStore(path: path, logger: Logger(label: "saml-sp-keys"))
        let key = MasterKey.generate()
        let clock = ManualClock(Instant(Date()))
        let secrets = SecretsAtRest(masterKey: key)
        try await store.write { tx in
            try await SAMLServiceProviderKeys.sync(in: tx, tenant: .default, providers: ["saml.corp"], secrets: secrets, now: clock.now())
            try await SAMLServiceProviderKeys.sync(
                in: tx, tenant: TenantID(rawValue: "acme-1"), providers: ["saml.corp"], secrets: secrets, now: clock.now())
        }
        let nodeKeys = SAMLServiceProviderKeys(store: store, masterKey: key, clock: clock)
        let a = try #require(try await nodeKeys.signingKey(tenant: .default, providerID: "saml.corp"))
        let tenantPair = try #require(try await nodeKeys.signingKey(tenant: TenantID(rawValue: "acme-1"), providerID: "saml.corp"))
        #expect(tenantPair != a)
        #expect(try await nodeKeys.signingKey(tenant: .default, providerID: "saml.none") == nil)
        let rows = try await store.read { try await $0.samlSPKeys(tenant: nil, providerID: nil) }
        #expect(rows.count == 2 && rows.allSatisfy { $0.privateKeyPEM.hasPrefix("sealed:v1:\(key.id):") && !$0.privateKeyPEM.contains("PRIVATE") })
        var moved = try #require(rows.first { $0.tenant == .default })
        moved.providerID = "saml.other"
        #expect(throws: MasterKeyError.self) { try SecretsAtRest(masterKey: key).openSAMLSPKey(moved) }
        #expect(try await SecretsStatus.read(from: store) == SecretsStatus(inClear: 0, sealedByKey: [key.id: 2]))
        // `flint keys rewrap` seals them under the new key; a staged key too.
        clock.advance(by: .seconds(60))
        _ = try await nodeKeys.rotate(tenant: .default, providerID: "saml.corp", step: .stage)
        let next = MasterKey.generate()
        _ = try await SecretsAtRest(masterKey: key).rewrap(store: store, to: next)
        #expect(try await SecretsStatus.read(from: store) == SecretsStatus(inClear: 0, sealedByKey: [next.id: 3]))
        let rewrapped = SAMLServiceProviderKeys(store: store, masterKey: next, clock: clock)
        #expect(try await rewrapped.signingKey(tenant: .default, providerID: "saml.corp") == a)
        #expect(try await rewrapped.published(tenant: .default)["saml.corp"]?.last?.activatedAt == nil, "still waiting for its activation")
        try await store.close()
    }

    @Test("SP keys kept in clear (a store used without a master key) are sealed at the first start with one")
    func sealedAtStart() async throws {
        let path = temporaryDatabasePath()
        try await TestNode.make(path: path).run { api in try await api.configureSAML() }
        let store = try await SQLiteStore(path: path, logger: Logger(label: "saml-sp-keys"))
        let clear = try #require(
            try await SAMLServiceProviderKeys(store: store, masterKey: nil, clock: SystemClock()).signingKey(
                tenant: .default, providerID: "saml.corp"))
        #expect(try await store.read { try await $0.samlSPKeys(tenant: nil, providerID: nil) }.first?.privateKeyPEM == clear.privateKeyPEM)
        try await store.close()
        let key = MasterKey.generate()
        try await TestNode.make(path: path) { $0.masterKey = key }.run { _ in }
        let reader = try await SQLiteStore(path: path, logger: Logger(label: "saml-sp-keys"))
        let rows = try await reader.read { try await $0.samlSPKeys(tenant: nil, providerID: nil) }
        #expect(rows.count == 1 && rows.first?.privateKeyPEM.hasPrefix("sealed:v1:\(key.id):") == true)
        #expect(
            try await SAMLServiceProviderKeys(store: reader, masterKey: key, clock: SystemClock()).signingKey(
                tenant: .default, providerID: "saml.corp")
                == clear)
        try await reader.close()
    }
}
