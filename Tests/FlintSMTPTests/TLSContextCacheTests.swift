import Synchronization
import Testing

@testable import FlintSMTP

@Suite("SMTP TLS context")
struct TLSContextCacheTests {
    @Test("the TLS context is built at the first send and shared by every later one")
    func builtOnce() throws {
        let settings = SMTPSettings(host: "mail.test", port: 587, security: .startTLS)
        let cache = TLSContextCache()
        let builds = Mutex(0)
        var contexts: [ObjectIdentifier] = []
        for _ in 0..<5 {
            let context = try cache.get { () throws(SMTPError) in
                builds.withLock { $0 += 1 }
                return try SMTPClient.makeTLSContext(settings)
            }
            contexts.append(ObjectIdentifier(try #require(context)))
        }
        #expect(builds.withLock { $0 } == 1)
        #expect(Set(contexts).count == 1)
    }

    @Test("a failed build is not kept: the next send tries again")
    func failureNotKept() throws {
        let cache = TLSContextCache()
        let builds = Mutex(0)
        for _ in 0..<2 {
            #expect(throws: SMTPError.self) {
                try cache.get { () throws(SMTPError) in
                    builds.withLock { $0 += 1 }
                    throw SMTPError.tls("no")
                }
            }
        }
        #expect(builds.withLock { $0 } == 2)
    }
}
