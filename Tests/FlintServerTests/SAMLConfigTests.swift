import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("SAML provider resources: inboundSamlConfigs")
struct SAMLConfigTests {
    @Test("a SAML provider is created, read, patched with the Admin SDK's updateMask, listed in pages and deleted")
    func lifecycle() async throws {
        try await withFlint { api in
            var sent = try #require(SAMLFixture.resource().objectValue)
            var sp = try #require(sent["spConfig"]?.objectValue)
            sp["spCertificates"] = [["x509Certificate": "output only"]]
            sent["spConfig"] = .object(sp)
            let created = try await api.admin(.post, "\(Path.samlIdps)?inboundSamlConfigId=saml.corp", body: SAMLFixture.body(.object(sent)))
            #expect(created.status == .ok, "\(created.text)")
            #expect(created.string("name") == "projects/\(project)/inboundSamlConfigs/saml.corp")
            #expect(created["idpConfig"]?["idpCertificates"]?.arrayValue?.first?["x509Certificate"]?.stringValue == SAMLFixture.certificate)
            #expect(created["spConfig"]?["spEntityId"] == "flint-sp")
            let spCertificate = created["spConfig"]?["spCertificates"]?.arrayValue?.first?["x509Certificate"]?.stringValue
            #expect(spCertificate?.hasPrefix("-----BEGIN CERTIFICATE-----") == true, "output only: Flint's own, not the one sent")
            let again = try await api.admin(.post, "\(Path.samlIdps)?inboundSamlConfigId=saml.corp", body: SAMLFixture.body())
            #expect(again.status == .conflict && again.errorCode == "CONFIGURATION_EXISTS", "\(again.text)")
            // update_saml_provider_config's mask: the nested fields it sends, displayName cleared by DELETE_ATTRIBUTE.
            let patched = try await api.admin(
                .patch, "\(Path.samlIdps)/saml.corp?updateMask=displayName,enabled,idpConfig.ssoUrl,spConfig.callbackUri",
                body:
                    #"{"displayName":null,"enabled":false,"idpConfig":{"ssoUrl":"https://idp.example/sso2"},"spConfig":{"callbackUri":"https://b.example/cb"}}"#
            )
            #expect(patched.status == .ok, "\(patched.text)")
            #expect(patched["displayName"] == nil && patched["enabled"] == .bool(false))
            #expect(
                patched["idpConfig"]?["ssoUrl"] == "https://idp.example/sso2" && patched["idpConfig"]?["idpEntityId"] == "https://idp.example/entity")
            #expect(patched["spConfig"]?["callbackUri"] == "https://b.example/cb" && patched["spConfig"]?["spEntityId"] == "flint-sp")
            let read = try await api.admin(.get, "\(Path.samlIdps)/saml.corp")
            #expect(read.status == .ok && read["idpConfig"]?["ssoUrl"] == "https://idp.example/sso2", "\(read.text)")
            for id in ["saml.b", "saml.c"] {
                let reply = try await api.admin(.post, "\(Path.samlIdps)?inboundSamlConfigId=\(id)", body: SAMLFixture.body())
                #expect(reply.status == .ok, "\(reply.text)")
            }
            let page1 = try await api.admin(.get, "\(Path.samlIdps)?pageSize=2")
            #expect(
                page1["inboundSamlConfigs"]?.arrayValue?.compactMap { $0["name"]?.stringValue?.split(separator: "/").last.map(String.init) } == [
                    "saml.b", "saml.c",
                ])
            let token = try #require(page1.string("nextPageToken"))
            let page2 = try await api.admin(.get, "\(Path.samlIdps)?pageSize=2&pageToken=\(token)")
            #expect(page2["inboundSamlConfigs"]?.arrayValue?.count == 1 && page2["nextPageToken"] == nil, "\(page2.text)")
            #expect(try await api.admin(.delete, "\(Path.samlIdps)/saml.corp").status == .ok)
            let gone = try await api.admin(.get, "\(Path.samlIdps)/saml.corp")
            #expect(gone.status == .notFound && gone.errorCode == "CONFIGURATION_NOT_FOUND", "\(gone.text)")
            let deletedTwice = try await api.admin(.delete, "\(Path.samlIdps)/saml.corp")
            #expect(deletedTwice.errorCode == "CONFIGURATION_NOT_FOUND", "\(deletedTwice.text)")
            #expect(try await api.admin(.patch, "\(Path.samlIdps)/saml.x?updateMask=enabled", body: "{}").errorCode == "CONFIGURATION_NOT_FOUND")
            // Each change is a CONFIG_CHANGED event naming the collection.
            let changes = try await api.auditEvents("kind=CONFIG_CHANGED").filter { $0["detail"]?["collection"] == "inboundSamlConfigs" }
            #expect(changes.count == 5, "\(changes)")
            // A SAML provider signs in through its IdP's response, never with an ID token.
            let signIn = try await api.call(
                .post, API.keyed(Path.signInWithIdp), body: #"{"postBody":"providerId=saml.b&id_token=x","requestUri":"http://localhost"}"#)
            #expect(signIn.errorCode == "INVALID_IDP_RESPONSE", "\(signIn.text)")
        }
    }

    @Test(
        "bad provider IDs and resources are refused with Identity Platform's errors",
        arguments: [
            ("corp", SAMLFixture.resource(), "INVALID_PROVIDER_ID"),
            ("oidc.corp", SAMLFixture.resource(), "INVALID_PROVIDER_ID"),
            ("saml.", SAMLFixture.resource(), "INVALID_PROVIDER_ID"),
            ("saml.a", ["spConfig": ["spEntityId": "sp", "callbackUri": "https://a.example/cb"]], "INVALID_CONFIG"),
            ("saml.a", SAMLFixture.resource(idpEntityID: ""), "INVALID_CONFIG"),
            ("saml.a", SAMLFixture.resource(ssoURL: "not a url"), "INVALID_CONFIG"),
            ("saml.a", SAMLFixture.resource(ssoURL: "ftp://idp.example/sso"), "INVALID_CONFIG"),
            ("saml.a", SAMLFixture.resource(certificates: []), "INVALID_CONFIG"),
            ("saml.a", SAMLFixture.resource(certificates: ["-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----"]), "INVALID_CONFIG"),
            ("saml.a", SAMLFixture.resource(spEntityID: nil), "MISSING_SAML_RELYING_PARTY_CONFIG"),
            ("saml.a", SAMLFixture.resource(callbackURI: "/relative"), "INVALID_CONFIG"),
        ] as [(String, JSONValue, String)])
    func refusals(_ id: String, _ resource: JSONValue, _ code: String) async throws {
        try await withFlint { api in
            let reply = try await api.admin(.post, "\(Path.samlIdps)?inboundSamlConfigId=\(id)", body: SAMLFixture.body(resource))
            #expect(reply.status == .badRequest && reply.errorCode == code, "\(reply.text)")
            #expect(try await api.admin(.get, Path.samlIdps)["inboundSamlConfigs"] == nil, "nothing stored")
        }
    }

    @Test("a patch that leaves the resource invalid, a mask outside its fields and a missing ID are refused; a client may not call these")
    func refusedChanges() async throws {
        try await withFlint { api in
            #expect(try await api.admin(.post, "\(Path.samlIdps)?inboundSamlConfigId=saml.a", body: SAMLFixture.body()).status == .ok)
            let cleared = try await api.admin(.patch, "\(Path.samlIdps)/saml.a?updateMask=idpConfig.idpCertificates", body: "{}")
            #expect(cleared.errorCode == "INVALID_CONFIG", "\(cleared.text)")
            let badSign = try await api.admin(
                .patch, "\(Path.samlIdps)/saml.a?updateMask=idpConfig.signRequest", body: #"{"idpConfig":{"signRequest":"yes"}}"#)
            #expect(badSign.errorCode == "INVALID_CONFIG", "\(badSign.text)")
            let output = try await api.admin(.patch, "\(Path.samlIdps)/saml.a?updateMask=spConfig.spCertificates", body: "{}")
            #expect(output.errorCode == "INVALID_ARGUMENT", "\(output.text)")
            #expect(try await api.admin(.post, Path.samlIdps, body: SAMLFixture.body()).status == .badRequest)
            #expect(try await api.call(.get, API.keyed(Path.samlIdps)).status != .ok)
            #expect(try await api.admin(.get, "\(Path.samlIdps)/saml.a")["idpConfig"]?["idpCertificates"]?.arrayValue?.count == 1, "unchanged")
        }
    }

    @Test("a read-only admin credential gets and lists SAML providers, and is refused changes")
    func readOnly() async throws {
        let node = try await TestNode.make()
        let reader = try await node.adminCredential("reader", scope: .read)
        try await node.run { (api: API) async throws in
            #expect(try await api.admin(.post, "\(Path.samlIdps)?inboundSamlConfigId=saml.a", body: SAMLFixture.body()).status == .ok)
            #expect(try await api.bearer(reader, .get, "\(Path.samlIdps)/saml.a").status == .ok)
            #expect(try await api.bearer(reader, .get, Path.samlIdps).status == .ok)
            #expect(try await api.bearer(reader, .delete, "\(Path.samlIdps)/saml.a").status == .forbidden)
            #expect(try await api.bearer(reader, .post, "\(Path.samlIdps)?inboundSamlConfigId=saml.b", body: SAMLFixture.body()).status == .forbidden)
        }
    }
}
