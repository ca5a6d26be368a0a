import Testing

@testable import FlintCore

@Suite("Imported password hashes: the stored text and bcrypt strings")
struct ImportedPasswordHashStorageTests {
    @Test("the stored text names the algorithm, its parameters, the salt and the hash")
    func format() {
        let salt: [UInt8] = [1, 2, 3]
        let hash: [UInt8] = [4, 5, 6]
        let cases: [(ImportedHashAlgorithm, String)] = [
            (.salted(.sha256, rounds: 1, order: .saltAndPassword), "sha256$rounds=1,order=salt-password$AQID$BAUG"),
            (.salted(.md5, rounds: 0, order: .passwordAndSalt), "md5$rounds=0,order=password-salt$AQID$BAUG"),
            (.hmac(.sha512, key: [0xfb, 0xff], order: .passwordAndSalt), "hmac-sha512$key=-_8,order=password-salt$AQID$BAUG"),
            (.pbkdfSHA1(rounds: 1000), "pbkdf-sha1$rounds=1000$AQID$BAUG"),
            (.pbkdf2SHA256(rounds: 120_000), "pbkdf2-sha256$rounds=120000$AQID$BAUG"),
            (.bcrypt, "bcrypt$$AQID$BAUG"),
            (
                .standardScrypt(StandardScryptParameters(cpuMemCost: 1024, blockSize: 8, parallelization: 2, dkLen: 3)),
                "standard-scrypt$n=1024,r=8,p=2,dklen=3$AQID$BAUG"
            ),
            (
                .firebaseScrypt(FirebaseScryptParameters(signerKey: [9], saltSeparator: [], rounds: 8, memoryCost: 14)),
                "firebase-scrypt$rounds=8,memcost=14,key=CQ,sep=$AQID$BAUG"
            ),
        ]
        for (algorithm, text) in cases {
            let imported = ImportedPasswordHash(algorithm: algorithm, salt: salt, hash: hash)
            #expect(imported.stored == text)
            #expect(ImportedPasswordHash(stored: text) == imported)
        }
        #expect(ImportedPasswordHash(algorithm: .bcrypt, salt: [], hash: hash).stored == "bcrypt$$$BAUG")
    }

    @Test(
        "malformed texts, Flint's own hashes and out-of-range parameters are not imported hashes",
        arguments: [
            "", "sha256", "sha256$rounds=1,order=salt-password$AQID", "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
            "sha256$rounds=1$AQID$BAUG", "sha256$rounds=0,order=salt-password$AQID$BAUG", "sha256$rounds=01,order=salt-password$AQID$BAUG",
            "sha256$rounds=+1,order=salt-password$AQID$BAUG", "sha256$rounds=1,order=salt-first$AQID$BAUG",
            "sha256$rounds=1,order=salt-password,x=1$AQID$BAUG", "sha256$rounds=1,rounds=1,order=salt-password$AQID$BAUG",
            "sha256$rounds=1,order=salt-password$AQ+D$BAUG", "sha256$rounds=1,order=salt-password$AQID$BAUG$",
            "sha3$rounds=1,order=salt-password$$BAUG",
            "SHA256$rounds=1,order=salt-password$$BAUG", "md5$rounds=8193,order=salt-password$$BAUG", "bcrypt$cost=4$$BAUG",
            "hmac-sha256$key=,order=password-salt$$BAUG", "hmac-sha384$key=CQ,order=password-salt$$BAUG", "pbkdf-sha1$rounds=0$$BAUG",
            "pbkdf2-sha256$rounds=120001$$BAUG", "standard-scrypt$n=1048576,r=8,p=1,dklen=64$$BAUG", "standard-scrypt$n=1024,r=8,p=1$$BAUG",
            "firebase-scrypt$rounds=9,memcost=14,key=CQ,sep=$$BAUG", "firebase-scrypt$rounds=8,memcost=14,key=,sep=$$BAUG",
            "firebase-scrypt$rounds=8,memcost=14,key=CQ$$BAUG",
        ])
    func rejected(_ text: String) {
        #expect(ImportedPasswordHash(stored: text) == nil)
        #expect(!PasswordHash.isImported(text))
    }

    @Test("Flint's own hashes are never taken for imported ones")
    func flintHashesAreNotImported() throws {
        let stored = try PasswordHash.make(password: "pw", salt: Array(repeating: 7, count: 16), parameters: PasswordHashParameters(logN: 10))
        #expect(!PasswordHash.isImported(stored))
        #expect(ImportedPasswordHash(stored: stored) == nil)
    }

    @Test(
        "malformed bcrypt strings never verify",
        arguments: [
            "", "$2b$04$abcdefghijklmnopqrstuu7EJV7kdjBBQxyb0HjTh9KS7.Lah/6C", "$2x$04$abcdefghijklmnopqrstuu7EJV7kdjBBQxyb0HjTh9KS7.Lah/6CG",
            "$2$04$abcdefghijklmnopqrstuu7EJV7kdjBBQxyb0HjTh9KS7.Lah/6CGx", "$2b$03$abcdefghijklmnopqrstuu7EJV7kdjBBQxyb0HjTh9KS7.Lah/6CG",
            "$2b$32$abcdefghijklmnopqrstuu7EJV7kdjBBQxyb0HjTh9KS7.Lah/6CG", "$2b$4a$abcdefghijklmnopqrstuu7EJV7kdjBBQxyb0HjTh9KS7.Lah/6CG",
            "$2b$04$abcdefghijklmnopqrstu!7EJV7kdjBBQxyb0HjTh9KS7.Lah/6CG", "$2b$04abcdefghijklmnopqrstuu7EJV7kdjBBQxyb0HjTh9KS7.Lah/6CGx",
        ])
    func malformedBCrypt(_ text: String) {
        #expect(!ImportedHashAlgorithm.bcrypt.verify(password: "correct horse battery staple", hash: Array(text.utf8), salt: []))
    }

    @Test("a bcrypt cost above 14 exceeds the work bound and never verifies, without being computed", .timeLimit(.minutes(1)))
    func bcryptCostBound() {
        // bcrypt of "correct horse battery staple" at cost 4 (scripts/hash-vectors.py), with other costs written in.
        func bcrypt(_ cost: String) -> [UInt8] { Array("$2b$\(cost)$abcdefghijklmnopqrstuu7EJV7kdjBBQxyb0HjTh9KS7.Lah/6CG".utf8) }
        for (cost, exceeds) in ["04": false, "14": false, "15": true, "31": true] {
            let hash = bcrypt(cost)
            #expect(ImportedHashAlgorithm.bcrypt.exceedsWorkBound(hash: hash) == exceeds, "cost \(cost)")
            #expect(ImportedPasswordHash(algorithm: .bcrypt, salt: [], hash: hash).exceedsWorkBound == exceeds, "cost \(cost)")
        }
        let cost31 = bcrypt("31")
        #expect(!ImportedHashAlgorithm.bcrypt.verify(password: "correct horse battery staple", hash: cost31, salt: []))
        // Only bcrypt strings carry their own work factor.
        #expect(!ImportedHashAlgorithm.salted(.sha256, rounds: 8192, order: .saltAndPassword).exceedsWorkBound(hash: cost31))
    }

    @Test("an MD5 import, which hashes the password again each round, checks passwords of at most 4096 bytes")
    func md5PasswordBound() {
        let salt: [UInt8] = Array("salt".utf8)
        func md5Hash(_ password: String) -> [UInt8] {
            var x = ImportedDigest.md5.hash(salt + Array(password.utf8))
            for _ in 0..<8192 { x = ImportedDigest.md5.hash(x + Array(password.utf8)) }
            return Array(Hex.encode(x).utf8)
        }
        let algorithm = ImportedHashAlgorithm.salted(.md5, rounds: 8192, order: .saltAndPassword)
        let longest = String(repeating: "p", count: 4096)
        #expect(algorithm.verify(password: longest, hash: md5Hash(longest), salt: salt))
        let longer = longest + "p"
        #expect(!algorithm.verify(password: longer, hash: md5Hash(longer), salt: salt))
    }

    @Test("bcrypt reads a password as C does: up to its first NUL byte")
    func bcryptStopsAtNUL() {
        // From scripts/hash-vectors.py: bcrypt of "correct horse battery staple" at cost 4.
        let hash = Array("$2b$04$abcdefghijklmnopqrstuu7EJV7kdjBBQxyb0HjTh9KS7.Lah/6CG".utf8)
        #expect(ImportedHashAlgorithm.bcrypt.verify(password: "correct horse battery staple", hash: hash, salt: []))
        #expect(ImportedHashAlgorithm.bcrypt.verify(password: "correct horse battery staple\u{0}more", hash: hash, salt: []))
        #expect(!ImportedHashAlgorithm.bcrypt.verify(password: "correct horse battery stapl\u{0}e", hash: hash, salt: []))
    }
}
