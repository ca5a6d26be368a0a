import ArgumentParser
import FlintServer
import FlintStore

/// `flint keys rotate`: add a signing key; the old one stays published until its tokens have expired.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Manage token-signing keys.", subcommands: [Rotate.self])

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a new signing key; running nodes switch to it within their reload interval (30 s)."
        )
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let db = try await store.open(logger: quietLogger())
            let kid = try await FlintServer.rotateKeys(store: db)
            try await db.close()
            print("new signing key \(kid); earlier keys stay published until their tokens expire")
        }
    }
}
