import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("Identity provider resources: defaultSupportedIdpConfigs and oauthIdpConfigs")
struct IdpConfigTests {
    @Test("an OIDC provider is created, read, patched with updateMask, listed in pages and deleted, as the Admin SDKs call them")
    func oidcLifecycle() async throws {
        try await withFlint { api in
            let body = #"{"displayName":"Corp","enabled":true,"clientId":"c1","issuer":"https://id.corp.example","clientSecret":"s"}"#
            let created = try await api.admin(.post, "\(Path.oauthIdps)?oauthIdpConfigId=oidc.corp", body: body)
            #expect(created.status == .ok, "\(created.text)")
            #expect(created.string("name") == "projects/\(project)/oauthIdpConfigs/oidc.corp")
            #expect(created.string("issuer") == "https://id.corp.example")
            let again = try await api.admin(.post, "\(Path.oauthIdps)?oauthIdpConfigId=oidc.corp", body: body)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "CONFIGURATION_EXISTS")
            let patched = try await api.admin(
                .patch, "\(Path.oauthIdps)/oidc.corp?updateMask=enabled,responseType.code", body: #"{"enabled":false,"responseType":{"code":true}}"#)
            #expect(patched.status == .ok, "\(patched.text)")
            #expect(patched["enabled"] == .bool(false))
            #expect(patched["responseType"]?["code"] == .bool(true))
            #expect(patched.string("clientId") == "c1")
            let read = try await api.admin(.get, "\(Path.oauthIdps)/oidc.corp")
            #expect(read["enabled"] == .bool(false))
            for id in ["oidc.b", "oidc.c"] {
                let reply = try await api.admin(
                    .post, "\(Path.oauthIdps)?oauthIdpConfigId=\(id)", body: #"{"clientId":"x","issuer":"https://x.example"}"#)
                #expect(reply.status == .ok, "\(reply.text)")
            }
            let page1 = try await api.admin(.get, "\(Path.oauthIdps)?pageSize=2")
            #expect(
                page1["oauthIdpConfigs"]?.arrayValue?.compactMap { $0["name"]?.stringValue.map { String($0.split(separator: "/").last!) } } == [
                    "oidc.b", "oidc.c",
                ])
            let token = try #require(page1.string("nextPageToken"))
            let page2 = try await api.admin(.get, "\(Path.oauthIdps)?pageSize=2&pageToken=\(token)")
            #expect(page2["oauthIdpConfigs"]?.arrayValue?.count == 1)
            #expect(page2["nextPageToken"] == nil)
            let deleted = try await api.admin(.delete, "\(Path.oauthIdps)/oidc.corp")
            #expect(deleted.status == .ok, "\(deleted.text)")
            let gone = try await api.admin(.get, "\(Path.oauthIdps)/oidc.corp")
            #expect(gone.status == .notFound)
            #expect(gone.errorCode == "CONFIGURATION_NOT_FOUND")
            // The stored config carries what the resources hold.
            let config = try await api.admin(.get, Path.config)
            #expect(config["oauthIdpConfigs"]?["oidc.b"]?["clientId"]?.stringValue == "x")
        }
    }

    @Test(
        "Facebook, GitHub and Play Games are created, read, patched and deleted as the Admin SDK's auth.ProviderConfig calls them",
        arguments: ["facebook.com", "github.com", "playgames.google.com"])
    func socialProviders(_ id: String) async throws {
        try await withFlint { api in
            let created = try await api.admin(
                .post, "\(Path.defaultIdps)?idpId=\(id)", body: #"{"enabled":true,"clientId":"app-1","clientSecret":"s1"}"#)
            #expect(created.status == .ok, "\(created.text)")
            #expect(created.string("name") == "projects/\(project)/defaultSupportedIdpConfigs/\(id)" && created.string("clientId") == "app-1")
            let patched = try await api.admin(
                .patch, "\(Path.defaultIdps)/\(id)?updateMask=clientSecret,enabled", body: #"{"clientSecret":"s2","enabled":false}"#)
            #expect(patched.status == .ok && patched["enabled"] == .bool(false), "\(patched.text)")
            let read = try await api.admin(.get, "\(Path.defaultIdps)/\(id)")
            #expect(read.string("clientSecret") == "s2" && read.string("clientId") == "app-1", "\(read.text)")
            let listed = try await api.admin(.get, Path.defaultIdps)
            #expect(listed["defaultSupportedIdpConfigs"]?.arrayValue?.contains { $0["name"]?.stringValue?.hasSuffix("/\(id)") == true } == true)
            let deleted = try await api.admin(.delete, "\(Path.defaultIdps)/\(id)")
            #expect(deleted.status == .ok, "\(deleted.text)")
            #expect(try await api.admin(.get, "\(Path.defaultIdps)/\(id)").errorCode == "CONFIGURATION_NOT_FOUND")
        }
    }

    @Test("bad IDs and fields are refused; clients may not call these endpoints")
    func refusals() async throws {
        try await withFlint { api in
            let unknown = try await api.admin(.post, "\(Path.defaultIdps)?idpId=myspace.com", body: #"{"enabled":true}"#)
            #expect(unknown.errorCode == "INVALID_PROVIDER_ID", "\(unknown.text)")
            let noIssuer = try await api.admin(.post, "\(Path.oauthIdps)?oauthIdpConfigId=oidc.x", body: #"{"clientId":"c"}"#)
            #expect(noIssuer.errorCode == "INVALID_CONFIG", "\(noIssuer.text)")
            let badField = try await api.admin(.post, "\(Path.defaultIdps)?idpId=apple.com", body: #"{"enabled":"yes"}"#)
            #expect(badField.errorCode == "INVALID_CONFIG", "\(badField.text)")
            let noID = try await api.admin(.post, Path.defaultIdps, body: #"{"enabled":true}"#)
            #expect(noID.status == .badRequest, "\(noID.text)")
            let badMask = try await api.admin(.post, "\(Path.defaultIdps)?idpId=google.com", body: #"{"enabled":true,"clientId":"g"}"#)
            #expect(badMask.status == .ok, "\(badMask.text)")
            let masked = try await api.admin(.patch, "\(Path.defaultIdps)/google.com?updateMask=issuer", body: "{}")
            #expect(masked.errorCode == "INVALID_ARGUMENT", "\(masked.text)")
            let client = try await api.call(.get, API.keyed(Path.defaultIdps))
            #expect(client.status != .ok)
        }
    }

    @Test("providers in the --config file are applied like the rest of the config")
    func configFile() async throws {
        let document: [String: JSONValue] = [
            "defaultSupportedIdpConfigs": ["apple.com": ["enabled": true, "clientId": "svc", "appleSignInConfig": ["bundleIds": ["app"]]]]
        ]
        try await withFlint(configure: { $0.configDocument = document }) { api in
            let apple = try await api.admin(.get, "\(Path.defaultIdps)/apple.com")
            #expect(apple.status == .ok, "\(apple.text)")
            #expect(apple["appleSignInConfig"]?["bundleIds"] == ["app"])
        }
    }
}
