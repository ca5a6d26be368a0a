#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The format of an export file: `firebase auth:export`'s JSON or CSV.
enum ExportFormat: String, CaseIterable {
    case json, csv

    /// The file's format: its extension, else `given` (firebase-tools' rule: the extension wins).
    static func of(file: String, given: String?) throws -> ExportFormat {
        let lower = file.lowercased()
        if lower.hasSuffix(".json") { return .json }
        if lower.hasSuffix(".csv") { return .csv }
        guard let given else { throw ImportCommandError("name the format with the file's extension (.json, .csv) or --format json|csv") }
        guard let format = ExportFormat(rawValue: given.lowercased()) else { throw ImportCommandError("--format must be json or csv") }
        return format
    }
}

/// A failure of the command itself (not of one user), shown as its message.
struct ImportCommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One user that was not imported.
struct ImportFailure: Encodable {
    /// Its position among the file's users, from 0.
    var index: Int
    /// The line it starts on.
    var line: Int
    var localId: String?
    var message: String
}

/// `flint users import --json`'s summary.
struct ImportSummary: Encodable {
    var file: String
    var format: String
    /// Users read from the file.
    var read = 0
    var imported = 0
    /// Users whose `localId` was already stored (`--resume`).
    var skipped = 0
    var failed = 0
    var seconds = 0.0
    var usersPerSecond = 0
    /// The first failures (at most ``maximumListed``), in file order.
    var failures: [ImportFailure] = []
    /// Failures beyond those listed.
    var failuresNotListed = 0
    /// Set when the file's structure broke off the import: where and why.
    var stoppedAt: String?

    static let maximumListed = 1000

    /// Counts a failure, prints it on standard error, and lists it if there is room.
    mutating func fail(_ failure: ImportFailure) {
        failed += 1
        let id = failure.localId.map { ", localId \"\($0)\"" } ?? ""
        printError("user \(failure.index) (line \(failure.line)\(id)): \(failure.message)")
        if failures.count < Self.maximumListed { failures.append(failure) } else { failuresNotListed += 1 }
    }

    /// The summary as JSON text.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// One line for people.
    var line: String {
        "imported \(imported) of \(read) users from \(file) (\(failed) failed, \(skipped) already present) in "
            + "\(ProgressLine.duration(seconds)), \(usersPerSecond) users/s"
    }
}
