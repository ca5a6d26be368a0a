/// The format of an export file: `firebase auth:export`'s JSON or CSV.
package enum ExportFormat: String, CaseIterable, Sendable {
    case json, csv

    /// The file's format: its extension, else `given` (firebase-tools' rule: the extension wins).
    package static func of(file: String, given: String?) throws -> ExportFormat {
        let lower = file.lowercased()
        if lower.hasSuffix(".json") { return .json }
        if lower.hasSuffix(".csv") { return .csv }
        guard let given else { throw ImportCommandError("name the format with the file's extension (.json, .csv) or --format json|csv") }
        guard let format = ExportFormat(rawValue: given.lowercased()) else { throw ImportCommandError("--format must be json or csv") }
        return format
    }
}

/// A failure of an import as a whole (not of one user), shown as its message.
package struct ImportCommandError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// One user that was not imported.
package struct ImportFailure: Encodable, Sendable {
    /// Its position among the file's users, from 0.
    package var index: Int
    /// The line it starts on.
    package var line: Int
    package var localId: String?
    package var message: String

    package init(index: Int, line: Int, localId: String? = nil, message: String) {
        (self.index, self.line, self.localId, self.message) = (index, line, localId, message)
    }
}

/// What an import of a file did: `flint users import --json`'s summary, and the console's import report.
package struct ImportSummary: Encodable, Sendable {
    package var file: String
    package var format: String
    /// Users read from the file.
    package var read = 0
    package var imported = 0
    /// Users whose `localId` was already stored (`--resume`).
    package var skipped = 0
    package var failed = 0
    package var seconds = 0.0
    package var usersPerSecond = 0
    /// The first failures (at most ``maximumListed``), in file order once the import is over.
    package var failures: [ImportFailure] = []
    /// Failures beyond those listed.
    package var failuresNotListed = 0
    /// Set when the file's structure broke off the import: where and why.
    package var stoppedAt: String?

    package static let maximumListed = 1000

    package init(file: String, format: String) { (self.file, self.format) = (file, format) }

    /// Counts a failure, and lists it if there is room.
    package mutating func fail(_ failure: ImportFailure) {
        failed += 1
        if failures.count < Self.maximumListed { failures.append(failure) } else { failuresNotListed += 1 }
    }
}
