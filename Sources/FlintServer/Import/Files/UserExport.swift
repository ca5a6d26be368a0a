package import FlintStore

/// Every account of a store written as `firebase auth:export` writes users, a page at a time, so memory holds one
/// page whatever the store's size: `flint users export`'s file and the console's download are this text.
package struct UserExport: Sendable {
    /// Accounts read per page.
    package static let pageSize = 1000

    package let format: ExportFormat
    package init(format: ExportFormat) { self.format = format }

    /// What was written.
    package struct Outcome: Sendable {
        /// Users written.
        package var users = 0
        /// The import flags of each password hash configuration in the file, with how many users have it.
        package var hashes: [String: Int] = [:]
    }

    /// Reads `store`'s accounts in local-ID order and hands `write` the text of each page (the JSON format's opening
    /// and closing too); `written` is told the users written so far after each page.
    package func run(
        from store: any AuthStore, write: (String) async throws -> Void, written: (Int) -> Void = { _ in }
    ) async throws -> Outcome {
        var outcome = Outcome()
        if format == .json { try await write("{\"users\": [\n") }
        var after: String?
        while true {
            let page = try await store.read { [after] in try await $0.exportPage(tenant: .scoped, after: after, limit: Self.pageSize) }
            guard let last = page.last else { break }
            var text = ""
            for account in page {
                let user = ExportedUser(account)
                if let flags = user.hash?.flags { outcome.hashes[flags, default: 0] += 1 }
                switch format {
                case .json:
                    if outcome.users > 0 { text += ",\n" }
                    user.json.render(into: &text)
                case .csv:
                    text += user.csv
                }
                outcome.users += 1
            }
            try await write(text)
            after = last.user.localID
            written(outcome.users)
        }
        if format == .json { try await write("]}") }
        return outcome
    }
}
