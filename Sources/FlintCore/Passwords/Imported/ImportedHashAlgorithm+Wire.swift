/// Reading an `accounts:batchCreate` request's hash parameters (Identity Toolkit's `UploadAccountRequest`).
extension ImportedHashAlgorithm {
    /// Parses the hash fields of a `batchCreate` body: `hashAlgorithm`, `signerKey` and `saltSeparator` (base64,
    /// standard or URL-safe, padded or not), `rounds`, `memoryCost`, `cpuMemCost`, `blockSize`, `parallelization`,
    /// `dkLen` (numbers or strings of digits) and `passwordHashOrder`. snake_case keys are read too.
    ///
    /// Ranges are Firebase's: `SCRYPT` rounds 1...8 and memory cost 1...14; `MD5` rounds 0...8192; `SHA1`,
    /// `SHA256`, `SHA512` rounds 1...8192 (Firebase takes 0 but then never matches); `PBKDF_SHA1` and
    /// `PBKDF2_SHA256` rounds 1...120000; `SCRYPT` and `HMAC_*` need a signer key. `STANDARD_SCRYPT` must satisfy
    /// ``StandardScryptParameters/isValid``. `saltSeparator` is only used by `SCRYPT`.
    ///
    /// - Throws: ``AuthError/missingHashAlgorithm``, ``AuthError/invalidHashAlgorithm``, ``AuthError/invalidHashRounds``,
    ///   ``AuthError/invalidHashMemoryCost``, ``AuthError/emptyHashKey``, ``AuthError/invalidHashParameter``, or
    ///   ``AuthError/invalidJSON(_:)`` for a field of the wrong type.
    package init(wire body: [String: JSONValue]) throws(AuthError) {
        let fields = WireHashFields(body)
        guard let name = try fields.string("hashAlgorithm"), !name.isEmpty else { throw .missingHashAlgorithm }
        let rounds = try fields.int("rounds") ?? 0
        switch name.uppercased() {
        case "SCRYPT":
            let parameters = FirebaseScryptParameters(
                signerKey: try fields.bytes("signerKey") ?? [], saltSeparator: try fields.bytes("saltSeparator") ?? [],
                rounds: rounds, memoryCost: try fields.int("memoryCost") ?? 0)
            guard !parameters.signerKey.isEmpty else { throw .emptyHashKey }
            guard (1...8).contains(parameters.rounds) else { throw .invalidHashRounds }
            guard (1...14).contains(parameters.memoryCost) else { throw .invalidHashMemoryCost }
            self = .firebaseScrypt(parameters)
        case "STANDARD_SCRYPT":
            let parameters = StandardScryptParameters(
                cpuMemCost: try fields.int("cpuMemCost") ?? 0, blockSize: try fields.int("blockSize") ?? 0,
                parallelization: try fields.int("parallelization") ?? 0, dkLen: try fields.int("dkLen") ?? 0)
            guard parameters.isValid else { throw .invalidHashParameter }
            self = .standardScrypt(parameters)
        case "BCRYPT":
            self = .bcrypt
        case "PBKDF_SHA1", "PBKDF2_SHA256":
            guard (1...120_000).contains(rounds) else { throw .invalidHashRounds }
            self = name.uppercased() == "PBKDF_SHA1" ? .pbkdfSHA1(rounds: rounds) : .pbkdf2SHA256(rounds: rounds)
        case let upper where upper.hasPrefix("HMAC_"):
            guard let digest = ImportedDigest(rawValue: upper.dropFirst(5).lowercased()) else { throw .invalidHashAlgorithm }
            let key = try fields.bytes("signerKey") ?? []
            guard !key.isEmpty else { throw .emptyHashKey }
            self = .hmac(digest, key: key, order: try fields.order() ?? .passwordAndSalt)
        case let upper:
            guard let digest = ImportedDigest(rawValue: upper.lowercased()) else { throw .invalidHashAlgorithm }
            guard (digest == .md5 ? 0...8192 : 1...8192).contains(rounds) else { throw .invalidHashRounds }
            self = .salted(digest, rounds: rounds, order: try fields.order() ?? .saltAndPassword)
        }
    }
}

/// The hash fields of a request body, read by proto3's JSON rules.
private struct WireHashFields {
    let body: [String: JSONValue]

    init(_ body: [String: JSONValue]) { self.body = body }

    /// The member under its camelCase name or its snake_case one; `nil` when absent or `null`.
    func value(_ field: String) -> JSONValue? {
        let value = body[field] ?? body[Self.snakeCase(field)]
        return value == .null ? nil : value
    }

    func string(_ field: String) throws(AuthError) -> String? {
        guard let value = value(field) else { return nil }
        guard case .string(let text) = value else { throw Self.wrongType(field, "TYPE_STRING", value) }
        return text
    }

    /// An int32: a whole number, or a string of one.
    func int(_ field: String) throws(AuthError) -> Int? {
        guard let value = value(field) else { return nil }
        switch value {
        case .number(let n): if n.rounded() == n, let exact = Int32(exactly: n) { return Int(exact) }
        case .string(let text): if let parsed = Int32(text) { return Int(parsed) }
        default: break
        }
        throw Self.wrongType(field, "TYPE_INT32", value)
    }

    /// Bytes: base64 in either alphabet, with or without padding.
    func bytes(_ field: String) throws(AuthError) -> [UInt8]? {
        guard let value = value(field) else { return nil }
        guard case .string(let text) = value else { throw Self.wrongType(field, "TYPE_BYTES", value) }
        guard let bytes = Self.decodeBase64(text) else {
            throw AuthError.invalidJSON(
                "Invalid value at '\(Self.snakeCase(field))' (TYPE_BYTES), Base64 decoding failed for \"\(text.prefix(40))\"")
        }
        return bytes
    }

    /// `passwordHashOrder`; `nil` when absent or `UNSPECIFIED_ORDER`. proto3 also takes an enum's number.
    func order() throws(AuthError) -> PasswordHashOrder? {
        let field = "passwordHashOrder"
        switch value(field) {
        case nil, .string("UNSPECIFIED_ORDER"), .number(0): return nil
        case .string(let text): if let order = PasswordHashOrder(rawValue: text) { return order }
        case .number(1): return .saltAndPassword
        case .number(2): return .passwordAndSalt
        default: break
        }
        let shown = value(field).map { $0.stringValue.map { "\"\($0.prefix(40))\"" } ?? $0.kindName } ?? ""
        throw AuthError.invalidJSON(
            "Invalid value at 'password_hash_order' "
                + "(type.googleapis.com/google.cloud.identitytoolkit.v1.UploadAccountRequest.PasswordHashOrder), \(shown)")
    }

    static func decodeBase64(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        while body.hasSuffix("=") { body = body.dropLast() }
        guard text.count - body.count <= 2 else { return nil }
        let urlSafe = String(body.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        return Base64URL.decode(urlSafe)
    }

    static func wrongType(_ field: String, _ expected: String, _ value: JSONValue) -> AuthError {
        let got = value.kindName == "object" ? "{...}" : value.kindName
        return AuthError.invalidJSON("Invalid value at '\(snakeCase(field))' (\(expected)), \(got)")
    }

    static func snakeCase(_ field: String) -> String {
        var out = ""
        for ch in field {
            if ch.isUppercase {
                out.append("_")
                out.append(contentsOf: ch.lowercased())
            } else {
                out.append(ch)
            }
        }
        return out
    }
}
