package import FlintCore
package import FlintStore

/// One user of an import, checked and ready to be written.
package struct ImportCandidate: Sendable {
    /// Its place in the request (or the file): the index its error names.
    package var index: Int
    /// The account and its second factors as they will be stored.
    package var account: UserAndFactors
    /// A `rawPassword` to hash before writing (`accounts:batchCreate` only).
    var rawPassword: String?

    /// The account's ID.
    package var localID: String { account.user.localID }
}

/// Why one user of an import was not taken.
package enum ImportRefusal: Error, Sendable, Equatable {
    /// A member of the wrong type. Google's front end refuses the whole request for it (`INVALID_ARGUMENT`); a file
    /// import reports the user alone.
    case malformed(AuthError)
    /// A user Firebase reports in `error[]` and skips, with Firebase's message.
    case refused(String)

    /// The text reported for the user.
    package var message: String {
        switch self {
        case .malformed(let error): error.message
        case .refused(let message): message
        }
    }
}

/// Reads the users of an import (`accounts:batchCreate`'s `users[]`, or the records of a `firebase auth:export`
/// file) into accounts, with Firebase's per-user checks and messages. Pure: no store, no clock of its own.
package struct UserImportParser: Sendable {
    /// How the batch's `passwordHash`es were made; `nil` when none may carry one.
    package let algorithm: ImportedHashAlgorithm?
    /// The import's time: `createdAt` when a user has none, `passwordUpdatedAt`, `validSince`.
    package var now: Instant
    /// Whether `rawPassword` may stand for a hash (the server hashes it; a file import does not).
    package var acceptsRawPasswords = false
    /// Where second factors without an `mfaEnrollmentId` get one.
    let random: any RandomSource

    /// ``ImportedPasswordHash/stored`` up to the user's salt (`KIND$PARAMETERS$`): the same for the whole import, so
    /// it is written once rather than once a user (a signer key is 88 characters of base64).
    let storedPrefix: String?

    /// A parser for one batch.
    package init(algorithm: ImportedHashAlgorithm?, now: Instant, random: any RandomSource = SystemRandom()) {
        self.algorithm = algorithm
        self.now = now
        self.random = random
        self.storedPrefix = algorithm.map { String(ImportedPasswordHash(algorithm: $0, salt: [], hash: []).stored.dropLast()) }
    }

    /// What the password-hash column holds for a user's salt and hash: ``ImportedPasswordHash/stored``.
    func stored(salt: [UInt8], hash: [UInt8]) -> String? {
        storedPrefix.map { $0 + ImportBase64.encodeURL(salt) + "$" + ImportBase64.encodeURL(hash) }
    }

    /// Flint's message for a bcrypt `passwordHash` whose cost is above ``ImportedHashAlgorithm/maximumBCryptCost``
    /// (Firebase documents no bound and no message for it).
    static let bcryptCostMessage = "bcrypt cost must be at most \(ImportedHashAlgorithm.maximumBCryptCost)"

    /// The longest `localId` Firebase takes.
    package static let maximumLocalIDLength = 128

    /// Reads one user object; `path` names it in type errors (`users[3]`).
    package func candidate(_ object: [String: JSONValue], index: Int, path: String) -> Result<ImportCandidate, ImportRefusal> {
        do {
            return .success(try read(ImportFields(object, path: path), index: index))
        } catch let error as ImportRefusal {
            return .failure(error)
        } catch let error as AuthError {
            return .failure(.malformed(error))
        } catch {
            return .failure(.refused("\(error)"))
        }
    }

    private func read(_ fields: ImportFields, index: Int) throws -> ImportCandidate {
        guard let localID = try fields.string("localId"), !localID.isEmpty else { throw ImportRefusal.refused("localId is missing") }
        guard localID.count <= Self.maximumLocalIDLength else {
            throw ImportRefusal.refused("localId must be at most \(Self.maximumLocalIDLength) characters")
        }
        if let tenant = try fields.string("tenantId"), !tenant.isEmpty, tenant != TenantID.scoped.rawValue {
            throw ImportRefusal.refused("Tenant id in userInfo does not match the tenant id in request.")
        }
        var user = UserRecord(
            tenant: .scoped, localID: localID, createdAt: try fields.int64("createdAt").map(Instant.init(millisecondsSince1970:)) ?? now,
            validSince: now.wholeSecond)
        user.displayName = try fields.string("displayName")
        user.photoURL = try fields.string("photoUrl")
        user.lastLoginAt = try fields.int64("lastLoginAt").map(Instant.init(millisecondsSince1970:))
        user.emailVerified = try fields.bool("emailVerified")
        user.disabled = try fields.bool("disabled")
        var rawPassword: String?
        if let hash = try fields.bytes("passwordHash"), !hash.isEmpty {
            // bcrypt ignores the salt; it is kept all the same, so an export gives back what was imported.
            guard let stored = stored(salt: try fields.bytes("salt") ?? [], hash: hash) else {
                throw ImportRefusal.refused("passwordHash needs a hashAlgorithm")
            }
            // A bcrypt string carries its own cost: one too high would hold a hashing thread for each sign-in try.
            if algorithm?.exceedsWorkBound(hash: hash) == true { throw ImportRefusal.refused(Self.bcryptCostMessage) }
            user.passwordHash = stored
            user.passwordUpdatedAt = now
        } else if let raw = try fields.string("rawPassword"), !raw.isEmpty {
            guard acceptsRawPasswords else { throw ImportRefusal.refused("rawPassword cannot be imported here: send passwordHash and salt") }
            guard raw.utf8.count <= 4096 else { throw ImportRefusal.refused("rawPassword must be at most 4096 bytes") }
            rawPassword = raw
            user.passwordUpdatedAt = now
        }
        if let claims = try fields.string("customAttributes"), !claims.isEmpty {
            do {
                try AccountsFlow.checkCustomClaims(claims)
            } catch {
                throw ImportRefusal.refused(Self.claimsMessage(error))
            }
            user.customAttributes = claims
        }
        let identities = try identities(fields, localID: localID)
        if let phone = try fields.string("phoneNumber"), !phone.isEmpty {
            guard let parsed = try? PhoneNumber(parsing: phone) else { throw ImportRefusal.refused("phone number format is invalid") }
            user.phoneNumber = parsed.e164
        }
        if let email = try fields.string("email"), !email.isEmpty {
            guard let normalized = EmailAddress.normalize(email) else { throw ImportRefusal.refused("email is invalid") }
            user.email = normalized
        }
        let enrollments = try secondFactors(fields, user: user)
        let passkeys = try passkeys(fields, localID: localID)
        return ImportCandidate(
            index: index, account: UserAndFactors(user: user, enrollments: enrollments, identities: identities, passkeys: passkeys),
            rawPassword: rawPassword)
    }

    /// The user's federated identities (`providerUserInfo` entries for `google.com`, `apple.com`, `oidc.*`…): each
    /// needs its provider and raw ID (`federatedId` stands for the raw ID, as production answers them alike). `password`
    /// and `phone` entries describe what the account's own fields hold and are skipped, as Firebase does; an entry
    /// repeated within the user is kept once.
    private func identities(_ fields: ImportFields, localID: String) throws -> [FederatedIdentityRecord] {
        var out: [FederatedIdentityRecord] = []
        var seen = Set<FederatedIdentityKey>()
        for provider in try fields.objects("providerUserInfo") {
            let providerID = try provider.string("providerId") ?? ""
            if providerID == "password" || providerID == "phone" { continue }
            var rawID = try provider.string("rawId") ?? ""
            if rawID.isEmpty { rawID = try provider.string("federatedId") ?? "" }
            guard !providerID.isEmpty, !rawID.isEmpty else { throw ImportRefusal.refused("federatedId or (providerId & rawId) is required") }
            let identity = FederatedIdentityRecord(
                tenant: .scoped, localID: localID, providerID: providerID, rawID: rawID, email: try Self.nonEmpty(provider.string("email")),
                displayName: try Self.nonEmpty(provider.string("displayName")), photoURL: try Self.nonEmpty(provider.string("photoUrl")),
                phoneNumber: try Self.nonEmpty(provider.string("phoneNumber")), screenName: try Self.nonEmpty(provider.string("screenName")))
            if seen.insert(identity.key).inserted { out.append(identity) }
        }
        return out
    }

    /// `nil` for an empty text, as an absent member.
    private static func nonEmpty(_ text: String?) -> String? {
        text.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Phone second factors, with Firebase's rules: an email, verified; enrolment IDs unique within the user.
    private func secondFactors(_ fields: ImportFields, user: UserRecord) throws -> [MFAEnrollmentRecord] {
        let entries = try fields.objects("mfaInfo")
        guard !entries.isEmpty else { return [] }
        guard user.email != nil else { throw ImportRefusal.refused("Second factor account requires email to be presented.") }
        guard user.emailVerified else { throw ImportRefusal.refused("Second factor account requires email to be verified.") }
        var ids = Set<String>()
        var phones = Set<String>()
        var out: [MFAEnrollmentRecord] = []
        for entry in entries {
            if let id = try entry.string("mfaEnrollmentId"), !id.isEmpty {
                guard ids.insert(id).inserted else { throw ImportRefusal.refused("Enrollment id already exists.") }
            }
        }
        for entry in entries {
            guard let phone = try entry.string("phoneInfo"), !phone.isEmpty else { throw ImportRefusal.refused("Second factor not supported.") }
            guard let number = try? PhoneNumber(parsing: phone) else { throw ImportRefusal.refused("Phone number format is invalid") }
            guard phones.insert(number.e164).inserted else { throw ImportRefusal.refused("Phone number is enrolled twice as a second factor.") }
            var enrolledAt = now
            if let text = try entry.string("enrolledAt") {
                guard let parsed = RFC3339.parse(text) else {
                    throw AuthError.invalidJSON(
                        "Invalid value at '\(entry.qualified("enrolledAt"))' (type.googleapis.com/google.protobuf.Timestamp), \"\(text.prefix(40))\"")
                }
                enrolledAt = parsed
            }
            var id = try entry.string("mfaEnrollmentId") ?? ""
            if id.isEmpty {
                repeat { id = random.alphanumericID() } while ids.contains(id)
                ids.insert(id)
            }
            out.append(
                MFAEnrollmentRecord(
                    tenant: .scoped, enrollmentID: id, localID: user.localID, factor: .phone, displayName: try entry.string("displayName"),
                    phoneNumber: number.e164, enrolledAt: enrolledAt))
        }
        return out
    }

    /// The per-user texts Firebase reports for refused custom claims.
    static func claimsMessage(_ error: AuthError) -> String {
        switch error.code {
        case "CLAIMS_TOO_LARGE": "Custom claims provided are too large."
        case "FORBIDDEN_CLAIM": "Custom claims provided include a reserved claim."
        default: "Invalid custom claims provided."
        }
    }
}
