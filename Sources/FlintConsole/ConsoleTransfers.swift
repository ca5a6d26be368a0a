import FlintCore
import FlintServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The import form's fields read as `flint users import`'s flags: the format (the file's extension wins, as
/// firebase-tools' rule), `firebase auth:import`'s hash parameters (``ImportHashParameters``), and what to do with a
/// user whose ID is stored (refuse it, skip it as `--resume` does, or replace it as `--allow-overwrite` does).
enum ConsoleTransfers {
    /// What an import runs with.
    struct Settings {
        let format: ExportFormat
        let algorithm: ImportedHashAlgorithm?
        let existing: UserImporter.Existing
        let existingName: String
    }

    /// The hash algorithms `--hash-algo` names.
    static let algorithms = [
        "SCRYPT", "STANDARD_SCRYPT", "BCRYPT", "PBKDF_SHA1", "PBKDF2_SHA256", "HMAC_SHA512", "HMAC_SHA256", "HMAC_SHA1", "HMAC_MD5", "SHA512",
        "SHA256", "SHA1", "MD5",
    ]

    /// The text fields of the hash parameters, with the flag each stands for.
    static let textFields = ["hashKey", "saltSeparator", "hashInputOrder"]
    static let numberFields = ["rounds", "memCost", "parallelization", "blockSize", "dkLen"]

    /// The settings `form` gives for the file `fileName`.
    /// - Throws: ``ConsoleUpload/Refusal`` in the CLI's words for a refused parameter.
    static func settings(_ form: [String: String], fileName: String) throws -> Settings {
        let given = form["format"].flatMap { ExportFormat(rawValue: $0) }
        let format: ExportFormat
        do {
            format = try ExportFormat.of(file: fileName, given: given?.rawValue)
        } catch {
            throw ConsoleUpload.Refusal(description: "Name the file .json or .csv, or choose its format.")
        }
        var parameters = ImportHashParameters()
        func text(_ name: String) -> String? { form[name].map(\.trimmingSpaces).flatMap { $0.isEmpty ? nil : $0 } }
        func number(_ name: String) throws -> Int? {
            guard let value = text(name) else { return nil }
            guard let number = Int(value) else { throw ConsoleUpload.Refusal(description: "\(name) must be a whole number.") }
            return number
        }
        parameters.hashAlgo = text("hashAlgo").flatMap { $0 == "none" ? nil : $0 }
        (parameters.hashKey, parameters.saltSeparator, parameters.hashInputOrder) = (text("hashKey"), text("saltSeparator"), text("hashInputOrder"))
        (parameters.rounds, parameters.memCost, parameters.parallelization) = (
            try number("rounds"), try number("memCost"), try number("parallelization")
        )
        (parameters.blockSize, parameters.dkLen) = (try number("blockSize"), try number("dkLen"))
        let algorithm: ImportedHashAlgorithm?
        do {
            algorithm = try parameters.algorithm()
        } catch {
            throw ConsoleUpload.Refusal(description: error.description)
        }
        switch form["existing"] {
        case "skip": return Settings(format: format, algorithm: algorithm, existing: .skip, existingName: "skip")
        case "overwrite": return Settings(format: format, algorithm: algorithm, existing: .overwrite, existingName: "overwrite")
        default: return Settings(format: format, algorithm: algorithm, existing: .refuse, existingName: "refuse")
        }
    }

    /// The form's values to show again with `error`.
    static func echo(_ form: [String: String], error: String) -> [String: Any] {
        var data: [String: Any] = ["error": error, "hashAlgo": form["hashAlgo"] ?? "none"]
        for name in textFields + numberFields { data[name] = form[name] ?? "" }
        data["existingSkip"] = form["existing"] == "skip"
        data["existingOverwrite"] = form["existing"] == "overwrite"
        return data
    }

    /// A file's size in bytes (0 when it cannot be read).
    static func size(of path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// A byte count for people (`256 MiB`, `12 KiB`, `80 bytes`).
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
