import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("A tenant's provider resources: tenants/{t}/oauthIdpConfigs, inboundSamlConfigs and defaultSupportedIdpConfigs")
struct TenantIdpConfigTests {
    static let tenants = "/identitytoolkit.googleapis.com/v2/projects/\(project)/tenants"

    @Test(
        "each collection's resources are created, read, listed, patched and deleted in the tenant, apart from the project's",
        arguments: StoreEngine.all)
    func lifecycle(_ engine: StoreEngine) async throws {
        try await engine.withNode(try await engine.freshLocation()) { api in
            let id = try await TenantTests.create(api, #"{"displayName":"Acme"}"#)
            let base = "\(Self.tenants)/\(id)"
            let bodies: [(collection: String, query: String, provider: String, body: String, mask: String, patch: String)] = [
                (
                    "oauthIdpConfigs", "oauthIdpConfigId", "oidc.corp", #"{"enabled":true,"clientId":"c1","issuer":"https://id.corp.example"}"#,
                    "clientId", #"{"clientId":"c2"}"#
                ),
                (
                    "inboundSamlConfigs", "inboundSamlConfigId", "saml.corp", SAMLFixture.body(), "idpConfig.ssoUrl",
                    #"{"idpConfig":{"ssoUrl":"https://idp.example/two"}}"#
                ),
                (
                    "defaultSupportedIdpConfigs", "idpId", "google.com", #"{"enabled":true,"clientId":"g1","clientSecret":"s"}"#, "enabled",
                    #"{"enabled":false}"#
                ),
            ]
            for entry in bodies {
                let created = try await api.admin(.post, "\(base)/\(entry.collection)?\(entry.query)=\(entry.provider)", body: entry.body)
                #expect(created.status == .ok, "\(created.text)")
                #expect(created.string("name") == "projects/\(project)/tenants/\(id)/\(entry.collection)/\(entry.provider)")
                let again = try await api.admin(.post, "\(base)/\(entry.collection)?\(entry.query)=\(entry.provider)", body: entry.body)
                #expect(again.errorCode == "CONFIGURATION_EXISTS", "\(again.text)")
                let patched = try await api.admin(.patch, "\(base)/\(entry.collection)/\(entry.provider)?updateMask=\(entry.mask)", body: entry.patch)
                #expect(patched.status == .ok, "\(patched.text)")
                let listed = try await api.admin(.get, "\(base)/\(entry.collection)?pageSize=10")
                #expect(listed[entry.collection]?.arrayValue?.count == 1, "\(listed.text)")
                let project = try await api.admin(
                    .get, "/identitytoolkit.googleapis.com/v2/projects/\(project)/\(entry.collection)/\(entry.provider)")
                #expect(project.errorCode == "CONFIGURATION_NOT_FOUND", "the project's own collection is apart: \(project.text)")
            }
            #expect(try await api.admin(.get, "\(base)/oauthIdpConfigs/oidc.corp").string("clientId") == "c2")
            #expect(try await api.admin(.get, "\(base)/inboundSamlConfigs/saml.corp")["idpConfig"]?["ssoUrl"] == "https://idp.example/two")
            #expect(try await api.admin(.get, "\(base)/defaultSupportedIdpConfigs/google.com")["enabled"] == .bool(false))
            // The tenant resource itself does not carry them, and a tenant patch keeps them.
            let tenant = try await api.admin(.get, base)
            #expect(tenant["oauthIdpConfigs"] == nil && tenant["inboundSamlConfigs"] == nil, "\(tenant.text)")
            _ = try await api.admin(.patch, "\(base)?updateMask=displayName", body: #"{"displayName":"Acme-two"}"#)
            #expect(try await api.admin(.get, "\(base)/oauthIdpConfigs/oidc.corp").status == .ok)
            for entry in bodies {
                #expect(try await api.admin(.delete, "\(base)/\(entry.collection)/\(entry.provider)").status == .ok)
                #expect(try await api.admin(.get, "\(base)/\(entry.collection)/\(entry.provider)").errorCode == "CONFIGURATION_NOT_FOUND")
            }
            let audited = try await api.auditEvents("kind=CONFIG_CHANGED").filter {
                $0["detail"]?["tenant"]?.stringValue == id && $0["detail"]?["collection"] != nil
            }
            #expect(audited.count == 9, "create, patch and delete in three collections: \(audited)")
        }
    }

    @Test("an unknown tenant is TENANT_NOT_FOUND; the tenant's resources are checked by the project's rules")
    func refusals() async throws {
        try await withFlint { api in
            for (method, path, body) in [
                (HTTPRequest.Method.get, "\(Self.tenants)/nobody-abcde/oauthIdpConfigs", nil),
                (.get, "\(Self.tenants)/nobody-abcde/inboundSamlConfigs/saml.a", nil),
                (.post, "\(Self.tenants)/nobody-abcde/inboundSamlConfigs?inboundSamlConfigId=saml.a", SAMLFixture.body()),
                (.delete, "\(Self.tenants)/nobody-abcde/defaultSupportedIdpConfigs/google.com", nil),
            ] as [(HTTPRequest.Method, String, String?)] {
                let reply = try await api.admin(method, path, body: body)
                #expect(reply.errorCode == "TENANT_NOT_FOUND", "\(path): \(reply.text)")
            }
            let id = try await TenantTests.create(api, #"{"displayName":"Acme"}"#)
            let base = "\(Self.tenants)/\(id)"
            let noRelyingParty = try await api.admin(
                .post, "\(base)/inboundSamlConfigs?inboundSamlConfigId=saml.a", body: SAMLFixture.body(SAMLFixture.resource(spEntityID: nil)))
            #expect(noRelyingParty.errorCode == "MISSING_SAML_RELYING_PARTY_CONFIG", "\(noRelyingParty.text)")
            let noIssuer = try await api.admin(.post, "\(base)/oauthIdpConfigs?oauthIdpConfigId=oidc.x", body: #"{"clientId":"c"}"#)
            #expect(noIssuer.errorCode == "INVALID_CONFIG", "\(noIssuer.text)")
            let wrongID = try await api.admin(.post, "\(base)/inboundSamlConfigs?inboundSamlConfigId=oidc.x", body: SAMLFixture.body())
            #expect(wrongID.errorCode == "INVALID_PROVIDER_ID", "\(wrongID.text)")
            #expect(try await api.admin(.get, "\(base)/inboundSamlConfigs/saml.a").errorCode == "CONFIGURATION_NOT_FOUND")
            // Provider resources are not made with the tenant itself.
            let sneaked = try await TenantTests.create(
                api, #"{"displayName":"Sneaky","oauthIdpConfigs":{"oidc.x":{"clientId":"c","issuer":"https://x.example"}}}"#)
            #expect(try await api.admin(.get, "\(Self.tenants)/\(sneaked)/oauthIdpConfigs")["oauthIdpConfigs"] == nil)
        }
    }

    @Test("a change forgets the node's cached copy of the tenant, so its next reader sees the resource")
    func cacheForgotten() async throws {
        let node = try await TestNode.make()
        try await node.run { api in
            let id = try await TenantTests.create(api, #"{"displayName":"Acme"}"#)
            let cache = node.server.flows.tenants
            #expect(try await cache.tenant(id)?.idpResources(.saml).isEmpty == true)
            let created = try await api.admin(.post, "\(Self.tenants)/\(id)/inboundSamlConfigs?inboundSamlConfigId=saml.a", body: SAMLFixture.body())
            #expect(created.status == .ok, "\(created.text)")
            #expect(cache.count == 0)
            #expect(try await cache.tenant(id)?.idpResources(.saml)["saml.a"]?["spConfig"]?["spEntityId"] == "flint-sp")
        }
    }
}
