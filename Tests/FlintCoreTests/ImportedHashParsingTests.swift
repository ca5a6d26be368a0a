import Foundation
import HTTPTypes
import Testing

@testable import FlintCore

@Suite("Imported password hashes: request parameters")
struct ImportedHashParsingTests {
    func parse(_ json: String) throws -> ImportedHashAlgorithm {
        let body = try #require(try JSONValue(parsing: Array(json.utf8)).objectValue)
        return try ImportedHashAlgorithm(wire: body)
    }

    @Test(
        "parameters Firebase refuses are refused with its error string",
        arguments: [
            (#"{}"#, "MISSING_HASH_ALGORITHM"),
            (#"{"hashAlgorithm":""}"#, "MISSING_HASH_ALGORITHM"),
            (#"{"hashAlgorithm":null}"#, "MISSING_HASH_ALGORITHM"),
            (#"{"hashAlgorithm":"ARGON2"}"#, "INVALID_HASH_ALGORITHM"),
            (#"{"hashAlgorithm":"SHA384","rounds":1}"#, "INVALID_HASH_ALGORITHM"),
            (#"{"hashAlgorithm":"HMAC_SHA384","signerKey":"a2V5"}"#, "INVALID_HASH_ALGORITHM"),
            (#"{"hashAlgorithm":"MD5","rounds":8193}"#, "INVALID_HASH_ROUNDS"),
            (#"{"hashAlgorithm":"MD5","rounds":-1}"#, "INVALID_HASH_ROUNDS"),
            (#"{"hashAlgorithm":"SHA256"}"#, "INVALID_HASH_ROUNDS"),
            (#"{"hashAlgorithm":"SHA1","rounds":0}"#, "INVALID_HASH_ROUNDS"),
            (#"{"hashAlgorithm":"SHA512","rounds":8193}"#, "INVALID_HASH_ROUNDS"),
            (#"{"hashAlgorithm":"PBKDF_SHA1","rounds":0}"#, "INVALID_HASH_ROUNDS"),
            (#"{"hashAlgorithm":"PBKDF2_SHA256","rounds":120001}"#, "INVALID_HASH_ROUNDS"),
            (#"{"hashAlgorithm":"SCRYPT","rounds":8,"memoryCost":14}"#, "EMPTY_HASH_KEY"),
            (#"{"hashAlgorithm":"SCRYPT","signerKey":"a2V5","rounds":9,"memoryCost":14}"#, "INVALID_HASH_ROUNDS"),
            (#"{"hashAlgorithm":"SCRYPT","signerKey":"a2V5","memoryCost":14}"#, "INVALID_HASH_ROUNDS"),
            (#"{"hashAlgorithm":"SCRYPT","signerKey":"a2V5","rounds":8,"memoryCost":15}"#, "INVALID_HASH_MEMORY_COST"),
            (#"{"hashAlgorithm":"SCRYPT","signerKey":"a2V5","rounds":8}"#, "INVALID_HASH_MEMORY_COST"),
            (#"{"hashAlgorithm":"HMAC_SHA256"}"#, "EMPTY_HASH_KEY"),
            (#"{"hashAlgorithm":"HMAC_MD5","signerKey":""}"#, "EMPTY_HASH_KEY"),
            (#"{"hashAlgorithm":"STANDARD_SCRYPT","memoryCost":1024,"blockSize":8,"parallelization":1,"dkLen":64}"#, "INVALID_HASH_PARAMETER"),
            (#"{"hashAlgorithm":"STANDARD_SCRYPT","cpuMemCost":1000,"blockSize":8,"parallelization":1,"dkLen":64}"#, "INVALID_HASH_PARAMETER"),
            (#"{"hashAlgorithm":"STANDARD_SCRYPT","cpuMemCost":1048576,"blockSize":8,"parallelization":1,"dkLen":64}"#, "INVALID_HASH_PARAMETER"),
            (#"{"hashAlgorithm":"STANDARD_SCRYPT","cpuMemCost":32768,"blockSize":8,"parallelization":16,"dkLen":64}"#, "INVALID_HASH_PARAMETER"),
            (#"{"hashAlgorithm":"STANDARD_SCRYPT","cpuMemCost":65536,"blockSize":1,"parallelization":1,"dkLen":64}"#, "INVALID_HASH_PARAMETER"),
            (#"{"hashAlgorithm":"STANDARD_SCRYPT","cpuMemCost":1024,"blockSize":8,"parallelization":0,"dkLen":64}"#, "INVALID_HASH_PARAMETER"),
            (#"{"hashAlgorithm":"STANDARD_SCRYPT","cpuMemCost":1024,"blockSize":8,"parallelization":1}"#, "INVALID_HASH_PARAMETER"),
            (#"{"hashAlgorithm":"STANDARD_SCRYPT","cpuMemCost":1024,"blockSize":17,"parallelization":1,"dkLen":64}"#, "INVALID_HASH_PARAMETER"),
            (#"{"hashAlgorithm":"SHA1","rounds":"abc"}"#, "Invalid JSON payload received. Invalid value at 'rounds' (TYPE_INT32), TYPE_STRING"),
            (#"{"hashAlgorithm":"SHA1","rounds":1.5}"#, "Invalid JSON payload received. Invalid value at 'rounds' (TYPE_INT32), TYPE_NUMBER"),
            (#"{"hashAlgorithm":"SHA1","rounds":4294967297}"#, "Invalid JSON payload received. Invalid value at 'rounds' (TYPE_INT32), TYPE_NUMBER"),
            (#"{"hashAlgorithm":5}"#, "Invalid JSON payload received. Invalid value at 'hash_algorithm' (TYPE_STRING), TYPE_NUMBER"),
            (
                #"{"hashAlgorithm":"HMAC_SHA1","signerKey":true}"#,
                "Invalid JSON payload received. Invalid value at 'signer_key' (TYPE_BYTES), TYPE_BOOL"
            ),
            (
                #"{"hashAlgorithm":"HMAC_SHA1","signerKey":"no base64!"}"#,
                #"Invalid JSON payload received. Invalid value at 'signer_key' (TYPE_BYTES), Base64 decoding failed for "no base64!""#
            ),
            (
                #"{"hashAlgorithm":"SCRYPT","signerKey":"a2V5","saltSeparator":"a===","rounds":8,"memoryCost":14}"#,
                #"Invalid JSON payload received. Invalid value at 'salt_separator' (TYPE_BYTES), Base64 decoding failed for "a===""#
            ),
            (
                #"{"hashAlgorithm":"SHA1","rounds":1,"passwordHashOrder":"BOTH"}"#,
                "Invalid JSON payload received. Invalid value at 'password_hash_order' "
                    + #"(type.googleapis.com/google.cloud.identitytoolkit.v1.UploadAccountRequest.PasswordHashOrder), "BOTH""#
            ),
        ])
    func refused(json: String, message: String) throws {
        #expect(throws: AuthError.self) { try parse(json) }
        do {
            _ = try parse(json)
        } catch let error as AuthError {
            #expect(error.message == message)
            #expect(error.status.code == 400)
        }
    }

    @Test("accepted parameters: defaults, proto3's spellings and alphabets")
    func accepted() throws {
        let key = Array("key".utf8)
        #expect(try parse(#"{"hashAlgorithm":"md5"}"#) == .salted(.md5, rounds: 0, order: .saltAndPassword))
        #expect(try parse(#"{"hashAlgorithm":"SHA1","rounds":"7"}"#) == .salted(.sha1, rounds: 7, order: .saltAndPassword))
        #expect(try parse(#"{"hashAlgorithm":"SHA1","rounds":1,"passwordHashOrder":2}"#) == .salted(.sha1, rounds: 1, order: .passwordAndSalt))
        #expect(try parse(#"{"hashAlgorithm":"HMAC_SHA512","signerKey":"a2V5"}"#) == .hmac(.sha512, key: key, order: .passwordAndSalt))
        #expect(
            try parse(#"{"hashAlgorithm":"HMAC_SHA512","signerKey":"a2V5","passwordHashOrder":"UNSPECIFIED_ORDER"}"#)
                == .hmac(.sha512, key: key, order: .passwordAndSalt))
        #expect(
            try parse(#"{"hash_algorithm":"HMAC_SHA1","signer_key":"a2V5","password_hash_order":"SALT_AND_PASSWORD"}"#)
                == .hmac(.sha1, key: key, order: .saltAndPassword))
        // Standard and URL-safe base64, padded or not: 0xfb 0xff is "+/8=" or "-_8".
        #expect(try parse(#"{"hashAlgorithm":"HMAC_MD5","signerKey":"+/8="}"#) == .hmac(.md5, key: [0xfb, 0xff], order: .passwordAndSalt))
        #expect(try parse(#"{"hashAlgorithm":"HMAC_MD5","signerKey":"-_8"}"#) == .hmac(.md5, key: [0xfb, 0xff], order: .passwordAndSalt))
        #expect(try parse(#"{"hashAlgorithm":"PBKDF_SHA1","rounds":120000}"#) == .pbkdfSHA1(rounds: 120_000))
        #expect(try parse(#"{"hashAlgorithm":"PBKDF2_SHA256","rounds":1}"#) == .pbkdf2SHA256(rounds: 1))
        #expect(try parse(#"{"hashAlgorithm":"BCRYPT","rounds":99,"signerKey":"a2V5"}"#) == .bcrypt)
        #expect(
            try parse(#"{"hashAlgorithm":"SCRYPT","signerKey":"a2V5","rounds":1,"memoryCost":1}"#)
                == .firebaseScrypt(FirebaseScryptParameters(signerKey: key, saltSeparator: [], rounds: 1, memoryCost: 1)))
        #expect(
            try parse(#"{"hashAlgorithm":"STANDARD_SCRYPT","cpuMemCost":16384,"blockSize":8,"parallelization":1,"dkLen":64}"#)
                == .standardScrypt(StandardScryptParameters(cpuMemCost: 16384, blockSize: 8, parallelization: 1, dkLen: 64)))
        for digest in ImportedDigest.allCases {
            let wire = #"{"hashAlgorithm":"HMAC_\#(digest.wireName)","signerKey":"a2V5"}"#
            #expect(try parse(wire).wireName == "HMAC_" + digest.wireName)
        }
    }

    @Test("Firebase's published SCRYPT vector (firebase/scrypt README) verifies")
    func firebaseScryptVector() throws {
        let algorithm = try parse(
            #"{"hashAlgorithm":"SCRYPT","rounds":8,"memoryCost":14,"saltSeparator":"Bw==","#
                + #""signerKey":"jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="}"#)
        let salt = [UInt8](Data(base64Encoded: "42xEC+ixf3L2lw==")!)
        let hash = [UInt8](
            Data(base64Encoded: "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==")!)
        #expect(algorithm.verify(password: "user1password", hash: hash, salt: salt))
        #expect(!algorithm.verify(password: "user2password", hash: hash, salt: salt))
        #expect(!algorithm.verify(password: "user1password", hash: hash, salt: Array(salt.dropLast())))
        #expect(!algorithm.verify(password: "user1password", hash: [], salt: salt))
        let stored = ImportedPasswordHash(algorithm: algorithm, salt: salt, hash: hash).stored
        #expect(
            stored.hasPrefix(
                "firebase-scrypt$rounds=8,memcost=14,key=jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA,sep=Bw$42xEC-ixf3L2lw$"
            ))
        #expect(ImportedPasswordHash(stored: stored)?.verify(password: "user1password") == true)
    }

    @Test("an MD5 hash may be stored as lower- or upper-case hex text or as the raw 16 bytes")
    func md5Encodings() throws {
        let algorithm = ImportedHashAlgorithm.salted(.md5, rounds: 0, order: .saltAndPassword)
        let salt = Array("qwerty".utf8)
        // Firebase's own example (firebase-tools#282): md5('qwerty' + 'hellotest') as hex text.
        let hex = "20f7ec724e661bad133382d0d534b2f7"
        #expect(algorithm.verify(password: "hellotest", hash: Array(hex.utf8), salt: salt))
        #expect(algorithm.verify(password: "hellotest", hash: Array(hex.uppercased().utf8), salt: salt))
        #expect(algorithm.verify(password: "hellotest", hash: try #require(Hex.decode(hex)), salt: salt))
        #expect(!algorithm.verify(password: "hellotest", hash: Array(("30" + hex.dropFirst(2)).utf8), salt: salt))
        #expect(!algorithm.verify(password: "hellotest", hash: Array(hex.dropLast().utf8), salt: salt))
        #expect(!algorithm.verify(password: "hellotesT", hash: Array(hex.utf8), salt: salt))
    }
}
