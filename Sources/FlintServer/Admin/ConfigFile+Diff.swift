package import FlintCore
package import FlintStore

/// What `flint config diff FILE` shows: the fields a config file would change if it were applied now.
extension ConfigFile {
    /// One field (a leaf path such as `signIn.phoneNumber.enabled`) where the file and the stored config differ.
    package struct Difference: Sendable, Equatable {
        /// The dotted path of the field.
        package var path: String
        /// The file's value; `nil` when the file leaves it out (applying the file removes it).
        package var file: JSONValue?
        /// The stored value; `nil` when the stored config has none.
        package var stored: JSONValue?
    }

    /// The leaf fields under the file's top-level keys whose values differ from the stored config's. Applying a file
    /// replaces each of its top-level fields whole, so a stored field the file leaves out under one of them shows as
    /// removed; top-level fields the file does not mention are kept and not listed.
    package static func differences(file: [String: JSONValue], stored: [String: JSONValue]) -> [Difference] {
        var out: [Difference] = []
        for key in file.keys.sorted() {
            compare(file[key], stored[key], path: key, into: &out)
        }
        return out
    }

    private static func compare(_ file: JSONValue?, _ stored: JSONValue?, path: String, into out: inout [Difference]) {
        if case .object(let a)? = file, case .object(let b)? = stored {
            for key in Set(a.keys).union(b.keys).sorted() {
                compare(a[key], b[key], path: path + "." + key, into: &out)
            }
            return
        }
        if file != stored { out.append(Difference(path: path, file: file, stored: stored)) }
    }
}

extension ProjectConfigStore {
    /// The SHA-256 (hex) of the config file last applied by a starting node, if any.
    package static func appliedFileDigest(in store: any AuthStore) async throws -> String? {
        try await ConfigCache.appliedFileDigest(in: store)
    }
}
