import ArgumentParser
import FlintCore
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint users …`: operator tools for the user table.
struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage users, with the same rules as the Admin SDKs' calls.",
        subcommands: [
            List.self, Get.self, Create.self, Update.self, Disable.self, Enable.self, Unlock.self, Delete.self, Revoke.self, SetClaims.self,
            Generate.self,
            UsersImport.self, UsersExport.self, Sessions.self, EndSession.self,
        ])

    /// `flint users generate`: synthetic phone users for load and scale tests.
    struct Generate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add synthetic phone users (+1 415 xxx xxxx from --first on) for scale benchmarks.",
            discussion: """
                Numbers are +1415 followed by seven digits counting up from --first; past +1 415 999 9999 they go on in \
                the area codes 628, 650, 510 and 408 (8,000,000 each), so up to 42,000,000 users fit. Existing numbers \
                are skipped.
                """
        )
        @OptionGroup var store: StoreOptions
        @Option(help: "How many users to add.") var count: Int
        @Option(help: "First seven-digit subscriber number.") var first: Int = 3_000_000
        @Option(help: "Users per transaction.") var batch: Int = 2_000

        func validate() throws {
            guard count > 0, first >= 2_000_000, first + count <= Self.end else {
                throw ValidationError("--first must be at least 2000000 and --first + --count at most \(Self.end)")
            }
            guard (1...50_000).contains(batch) else { throw ValidationError("--batch must be between 1 and 50000") }
        }

        func run() async throws {
            let random = SystemRandom()
            let createdAt = SystemClock().now()
            // A page cache of its own size, as `flint users import` takes: with SQLite's 2 MiB, a batch's inserts at
            // random places of the account indexes spilled and re-read pages (about 25 KiB written per user at 1M).
            let (added, total) = try await store.withStore(sqliteCacheMiB: 256) { db in
                try await generate(into: db, random: random, createdAt: createdAt)
            }
            print("added \(added) users; \(total) in all")
        }

        /// The area codes numbers are drawn from, in order, each with its subscriber numbers 200 0000 … 999 9999.
        static let areaCodes = [415, 628, 650, 510, 408]
        /// One past the last number `first + count` may reach.
        static let end = 2_000_000 + areaCodes.count * 8_000_000

        /// The `n`th synthetic number: `+1415n` below 10,000,000 (as before), then on in the next area codes.
        static func phoneNumber(_ n: Int) -> String {
            let offset = n - 2_000_000
            return "+1\(areaCodes[offset / 8_000_000])\(2_000_000 + offset % 8_000_000)"
        }

        /// Inserts the numbered accounts in batches, skipping numbers taken; returns how many were added and the total.
        private func generate(into db: any AuthStore, random: SystemRandom, createdAt: Instant) async throws -> (Int, Int) {
            var added = 0
            var next = first
            while next < first + count {
                let end = min(next + batch, first + count)
                let users = (next..<end).map { n in
                    UserRecord(
                        localID: random.alphanumericID(), phoneNumber: Self.phoneNumber(n), createdAt: createdAt, validSince: createdAt.wholeSecond)
                }
                added += try await db.write { tx in
                    var inserted = 0
                    for user in users {
                        do {
                            try await tx.insertUser(user)
                            inserted += 1
                        } catch StoreError.conflict {
                            continue
                        }
                    }
                    return inserted
                }
                next = end
            }
            return (added, try await db.read { try await $0.userCount(tenant: .default) })
        }
    }
}
