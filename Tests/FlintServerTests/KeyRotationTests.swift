import FlintCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import FlintServer

@Suite("Key rotation through the admin API")
struct KeyRotationTests {
    @Test("only the operator rotates; the new key signs at once and the old one stays published")
    func rotate() async throws {
        try await withFlint { api in
            let before = try await api.signIn("+16505553434")
            let oldKid = try JWT.header(before.idToken)["kid"]?.stringValue
            #expect(try await api.call(.post, "/flint/v1/projects/demo-flint/keys:rotate").status == .unauthorized)
            #expect(try await api.call(.post, API.keyed("/flint/v1/projects/demo-flint/keys:rotate")).status == .forbidden)
            #expect(try await api.admin(.post, "/flint/v1/projects/other/keys:rotate").status == .notFound)
            let rotated = try await api.admin(.post, "/flint/v1/projects/demo-flint/keys:rotate")
            #expect(rotated.status == .ok)
            let newKid = try #require(rotated.string("kid"))
            #expect(newKid != oldKid)
            let after = try await api.signIn("+16505553434")
            #expect(try JWT.header(after.idToken)["kid"]?.stringValue == newKid)
            let jwks = try await api.call(.get, "/.well-known/jwks.json")
            #expect(jwks["keys"]?.arrayValue?.count == 2)
            #expect(try await api.lookup(before.idToken).status == .ok, "tokens of the retired key still verify")
        }
    }
}
