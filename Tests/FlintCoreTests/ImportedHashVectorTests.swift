import FlintCore
import FlintTesting
import Foundation
import Testing

@Suite("Imported password hashes: vectors from an independent implementation")
struct ImportedHashVectorTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        let name: String
        let wire: String
        let password: String
        let salt: [UInt8]
        let hash: [UInt8]
        var testDescription: String { name }

        var algorithm: ImportedHashAlgorithm {
            get throws {
                let body = try #require(try JSONValue(parsing: Array(wire.utf8)).objectValue)
                return try ImportedHashAlgorithm(wire: body)
            }
        }
    }

    static let vectors: [Vector] = importedHashVectors.map {
        Vector(
            name: $0.name, wire: $0.wire, password: $0.password, salt: [UInt8](Data(base64Encoded: $0.salt)!),
            hash: [UInt8](Data(base64Encoded: $0.hash)!))
    }

    @Test("the password verifies; a wrong one, or another salt, does not", arguments: vectors)
    func vector(_ vector: Vector) throws {
        let algorithm = try vector.algorithm
        #expect(algorithm.wireName == (try JSONValue(parsing: Array(vector.wire.utf8)))["hashAlgorithm"]?.stringValue)
        #expect(algorithm.verify(password: vector.password, hash: vector.hash, salt: vector.salt))
        // bcrypt reads 72 bytes of a password at most: what follows them does not count.
        let truncated = algorithm == .bcrypt && vector.password.utf8.count >= 72
        #expect(algorithm.verify(password: vector.password + "x", hash: vector.hash, salt: vector.salt) == truncated)
        if !vector.password.isEmpty {
            #expect(!algorithm.verify(password: String(vector.password.dropLast()), hash: vector.hash, salt: vector.salt))
        }
        if algorithm != .bcrypt {
            #expect(!algorithm.verify(password: vector.password, hash: vector.hash, salt: vector.salt + [0]))
        }
    }

    @Test("the stored text reads back to the same hash and still verifies", arguments: vectors)
    func storedRoundTrip(_ vector: Vector) throws {
        let imported = ImportedPasswordHash(algorithm: try vector.algorithm, salt: vector.salt, hash: vector.hash)
        let stored = imported.stored
        #expect(!stored.hasPrefix("$"))
        #expect(PasswordHash.isImported(stored))
        #expect(!PasswordHash.verify(password: vector.password, stored: stored))
        let read = try #require(ImportedPasswordHash(stored: stored))
        #expect(read == imported)
        #expect(read.verify(password: vector.password))
        #expect(!read.verify(password: "wrong"))
    }
}
