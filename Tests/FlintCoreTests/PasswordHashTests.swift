import FlintCore
import Testing

@Suite("Password hashes")
struct PasswordHashTests {
    let cheap = PasswordHashParameters(logN: 10)

    @Test("a hash verifies its password only, and carries its parameters")
    func roundTrip() throws {
        let stored = try PasswordHash.make(password: "correct horse", salt: Array(repeating: 7, count: 16), parameters: cheap)
        #expect(stored.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        #expect(PasswordHash.verify(password: "correct horse", stored: stored))
        #expect(!PasswordHash.verify(password: "correct horsE", stored: stored))
        #expect(!PasswordHash.verify(password: "", stored: stored))
        #expect(PasswordHash.parameters(of: stored) == cheap)
    }

    @Test("salts make equal passwords hash differently; unicode passwords work")
    func salts() throws {
        let a = try PasswordHash.make(password: "şifre-密码-пароль", salt: Array(repeating: 1, count: 16), parameters: cheap)
        let b = try PasswordHash.make(password: "şifre-密码-пароль", salt: Array(repeating: 2, count: 16), parameters: cheap)
        #expect(a != b)
        #expect(PasswordHash.verify(password: "şifre-密码-пароль", stored: b))
    }

    @Test("the scrypt core matches RFC 7914's test vector")
    func rfcVector() throws {
        // RFC 7914 §12: P="password", S="NaCl", N=1024, r=8, p=16, dkLen=64.
        let params = PasswordHashParameters(logN: 10, r: 8, p: 16)
        let stored = try PasswordHash.make(password: "password", salt: Array("NaCl".utf8), parameters: params)
        let hash = try #require(stored.split(separator: "$").last.flatMap { Base64URL.decode($0) })
        #expect(Hex.encode(hash) == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162")
    }

    @Test(
        "malformed or foreign hash strings never verify",
        arguments: [
            "", "plain", "$scrypt$ln=10,r=8,p=1$", "$scrypt$ln=99,r=8,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", "$argon2id$v=19$m=65536$x$y",
            "$scrypt$ln=10,r=8$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
        ])
    func malformed(_ stored: String) {
        #expect(!PasswordHash.verify(password: "x", stored: stored))
    }
}

@Suite("Email addresses and continue URLs")
struct EmailAddressTests {
    @Test("addresses are lower-cased and trimmed; malformed ones refused")
    func normalize() {
        #expect(EmailAddress.normalize(" Ada@Example.COM ") == "ada@example.com")
        #expect(EmailAddress.normalize("a+tag@sub.example.co.uk") == "a+tag@sub.example.co.uk")
        #expect(EmailAddress.normalize("root@localhost") == "root@localhost")
        for bad in ["", "a", "a@", "@b.c", "a@b", "a b@c.d", "a@@b.c", "a@b..c", "a@-b.c", "<a@b.c>", "a@b.c\r\nBcc: x@y.z"] {
            #expect(EmailAddress.normalize(bad) == nil, "\(bad)")
        }
    }

    @Test("continue URLs must be absolute with a host; the host must be listed exactly")
    func continueURL() throws {
        let url = try #require(ContinueURL("https://App.Example.com:8443/finish?x=1"))
        #expect(url.host == "app.example.com")
        #expect(url.isAuthorized(by: ["app.example.com"]))
        #expect(!url.isAuthorized(by: ["example.com"]))
        #expect(ContinueURL("myapp://callback/path")?.host == "callback")
        #expect(ContinueURL("http://[::1]:9099/x")?.host == "::1")
        for bad in [
            "", "/relative", "https://", "https:///path", "no-scheme.example.com", "java script:alert(1)", "https://a b/",
            #"https://evil.com\@app.example.com/"#, "https://user@app.example.com/", "https://evil.com%40@app.example.com/",
            "https://app.example.com/ü",
        ] {
            #expect(ContinueURL(bad) == nil, "\(bad)")
        }
    }
}
