import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import Testing

@testable import FlintServer

@Suite("Import: reading users")
struct ImportParsingTests {
    @Test("the stored hash written from the import's prefix is ImportedPasswordHash.stored, for every algorithm")
    func storedPrefix() throws {
        for vector in importedHashVectors {
            let wire = try #require(try JSONValue(parsing: Array(vector.wire.utf8)).objectValue)
            let algorithm = try ImportedHashAlgorithm(wire: wire)
            let salt = try #require(ImportBase64.decode(vector.salt))
            let hash = try #require(ImportBase64.decode(vector.hash))
            let parser = UserImportParser(algorithm: algorithm, now: 0)
            #expect(parser.stored(salt: salt, hash: hash) == ImportedPasswordHash(algorithm: algorithm, salt: salt, hash: hash).stored)
        }
    }

    @Test("base64 in either alphabet, padded or not, decodes; encodings match Foundation's")
    func base64() throws {
        var generator = SystemRandomNumberGenerator()
        for count in 0..<70 {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let standard = Data(bytes).base64EncodedString()
            #expect(ImportBase64.encode(bytes) == standard)
            #expect(ImportBase64.encodeURL(bytes) == Base64URL.encode(bytes))
            #expect(ImportBase64.decode(standard) == bytes)
            #expect(ImportBase64.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(ImportBase64.decode("a") == nil)
        #expect(ImportBase64.decode("ab!c") == nil)
        #expect(ImportBase64.decode("ab===") == nil)
    }

    @Test("RFC 3339 timestamps read back what Firebase writes, offsets and fractions included")
    func timestamps() {
        #expect(ImportTimestamp.parse("2021-02-03T04:05:06.789Z") == 1_612_325_106_789)
        #expect(ImportTimestamp.parse("2021-02-03T04:05:06Z") == 1_612_325_106_000)
        #expect(ImportTimestamp.parse("2021-02-03T06:05:06.7+02:00") == 1_612_325_106_700)
        #expect(ImportTimestamp.parse("2021-02-03T04:05:06.789123456Z") == 1_612_325_106_789)
        #expect(ImportTimestamp.parse("1969-12-31T23:59:59Z") == -1000)
        #expect(ImportTimestamp.parse("2021-02-03 04:05:06Z") == nil)
        #expect(ImportTimestamp.parse("2021-13-03T04:05:06Z") == nil)
        for ms: Int64 in [0, 1_612_325_106_789, 4_102_444_800_000] {
            #expect(ImportTimestamp.parse(ImportTimestamp.format(Instant(millisecondsSince1970: ms)))?.millisecondsSince1970 == ms)
        }
    }

    @Test("federated providers become identities: password and phone skipped, federatedId standing for rawId, empty fields absent, repeats once")
    func federatedProviders() throws {
        let parser = UserImportParser(algorithm: nil, now: 0)
        let user: [String: JSONValue] = [
            "localId": "u",
            "providerUserInfo": [
                ["providerId": "password", "rawId": "u@example.com"], ["providerId": "phone", "rawId": "+16505550101"],
                ["providerId": "google.com", "rawId": "1", "email": "u@gmail.com", "displayName": "", "screenName": "u"],
                ["providerId": "google.com", "rawId": "1"], ["providerId": "saml.corp", "federatedId": "emp-7"],
            ],
        ]
        guard case .success(let candidate) = parser.candidate(user, index: 0, path: "users[0]") else {
            Issue.record("the user was refused")
            return
        }
        #expect(
            candidate.account.identities == [
                FederatedIdentityRecord(localID: "u", providerID: "google.com", rawID: "1", email: "u@gmail.com", screenName: "u"),
                FederatedIdentityRecord(localID: "u", providerID: "saml.corp", rawID: "emp-7"),
            ])
        let typed = parser.candidate(
            ["localId": "u", "providerUserInfo": [["providerId": "google.com", "rawId": ["1"]]]], index: 0, path: "users[0]")
        guard case .failure(.malformed(let error)) = typed else {
            Issue.record("a mistyped rawId was taken")
            return
        }
        #expect(error.message.contains("users[0].provider_user_info[0].raw_id"), "\(error.message)")
    }

    @Test("a member of the wrong type names its path, as Google's front end does")
    func wrongType() {
        let parser = UserImportParser(algorithm: nil, now: 0)
        let user: [String: JSONValue] = [
            "localId": "a", "email": "a@example.com", "emailVerified": true, "mfaInfo": [["phoneInfo": "+16505550101", "enrolledAt": "yesterday"]],
        ]
        let result = parser.candidate(user, index: 3, path: "users[3]")
        guard case .failure(.malformed(let error)) = result else {
            Issue.record("expected a type error, got \(result)")
            return
        }
        #expect(error.message.hasPrefix("Invalid JSON payload received. Invalid value at 'users[3].mfa_info[0].enrolled_at'"), "\(error.message)")
    }
}
