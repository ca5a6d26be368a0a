import ArgumentParser
import Configuration
import Synchronization

/// Flint's `FLINT_*` environment variables, read through swift-configuration's `EnvironmentVariablesProvider`: the
/// key `reloadInterval` is the variable `FLINT_RELOAD_INTERVAL`. A flag given on the command line wins over its
/// variable, and an empty variable counts as unset. A variable whose value does not read as its type (`FLINT_PORT=abc`)
/// is never replaced by the default in silence: it is noted, and the command stops with a message naming it
/// (``refuseMalformed()``, run by every command that reads the store and by `flint serve`).
enum FlintEnvironment {
    /// The variables holding credentials: never shown by swift-configuration's access reporting.
    private static let secrets: Set<String> = [
        "FLINT_ADMIN_TOKEN", "FLINT_MASTER_KEY", "FLINT_NEW_MASTER_KEY", "FLINT_METRICS_TOKEN", "FLINT_SMTP_URL", "FLINT_SMS_URL",
        "FLINT_SMS_WEBHOOK_SECRET", "FLINT_DATABASE_URL", "FLINT_ADMIN_SECRET",
    ]
    private static let reader = ConfigReader(
        provider: EnvironmentVariablesProvider(secretsSpecifier: .dynamic { name, _ in secrets.contains(name) })
    ).scoped(to: "flint")
    private static let malformed = Mutex<[String]>([])

    /// The variable's value, if set and not empty.
    static func string(_ key: String) -> String? {
        guard let value = reader.string(forKey: ConfigKey(key)), !value.isEmpty else { return nil }
        return value
    }

    /// The variable as an integer, or `nil` when unset; a value that is no integer is noted and read as unset.
    static func int(_ key: String) -> Int? {
        guard string(key) != nil else { return nil }
        guard let value = reader.int(forKey: ConfigKey(key)) else { return noteMalformed(key, "is not an integer") }
        return value
    }

    /// The variable as an integer, or `defaultValue` when unset (or noted as malformed).
    static func int(_ key: String, default defaultValue: Int) -> Int { int(key) ?? defaultValue }

    /// The variable as a number, or `nil` when unset; a value that is no number is noted and read as unset.
    static func double(_ key: String) -> Double? {
        guard string(key) != nil else { return nil }
        guard let value = reader.double(forKey: ConfigKey(key)) else { return noteMalformed(key, "is not a number") }
        return value
    }

    /// The variable as a yes/no value (`1`/`0`, `true`/`false`, `yes`/`no`), or `nil` when unset; anything else is
    /// noted and read as unset.
    static func bool(_ key: String) -> Bool? {
        guard string(key) != nil else { return nil }
        guard let value = reader.bool(forKey: ConfigKey(key)) else { return noteMalformed(key, "is not 1/0, true/false or yes/no") }
        return value
    }

    /// The variable as a comma-separated list (empty entries dropped), or `nil` when unset.
    static func list(_ key: String) -> [String]? {
        guard string(key) != nil else { return nil }
        return reader.stringArray(forKey: ConfigKey(key))?.filter { !$0.isEmpty }
    }

    /// Stops the command when a variable did not read as its type.
    /// - Throws: `ValidationError` naming every such variable.
    static func refuseMalformed() throws {
        let problems = malformed.withLock { $0 }
        guard problems.isEmpty else { throw ValidationError(problems.joined(separator: "; ")) }
    }

    /// The variable's name for `key`: `reloadInterval` → `FLINT_RELOAD_INTERVAL`.
    static func variableName(_ key: String) -> String {
        var name = "FLINT_"
        var previousLower = false
        for c in key {
            if c.isUppercase && previousLower { name.append("_") }
            name += c.uppercased()
            previousLower = c.isLowercase || c.isNumber
        }
        return name
    }

    private static func noteMalformed<T>(_ key: String, _ problem: String) -> T? {
        let note = "\(variableName(key)) \(problem)"
        malformed.withLock { if !$0.contains(note) { $0.append(note) } }
        return nil
    }
}
