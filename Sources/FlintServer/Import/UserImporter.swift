package import FlintCore
package import FlintStore

/// What became of an import batch.
package struct ImportBatchOutcome: Sendable, Equatable {
    /// One refused user: its index in the batch's numbering and Firebase's message.
    package struct Failure: Sendable, Equatable {
        package var index: Int
        package var message: String
    }

    /// Users refused, in index order.
    package var failures: [Failure] = []
    /// Users written (new or overwritten).
    package var imported = 0
    /// Users skipped because their `localId` exists (``UserImporter/Existing/skip``).
    package var skipped = 0
}

/// Writes checked users in one transaction per batch: duplicates inside the batch and clashes with stored accounts
/// (ID, email, phone number, second-factor ID, federated identity, passkey credential ID) are refused user by user with
/// Firebase's messages, the others are inserted with multi-row statements. A user is written whole (row, second
/// factors, federated identities and passkeys) or not at all.
package struct UserImporter: Sendable {
    /// What to do with a user whose `localId` is taken.
    package enum Existing: Sendable {
        /// Refuse it (`allowOverwrite: false`).
        case refuse
        /// Replace the stored account, ending its sessions (`allowOverwrite: true`).
        case overwrite
        /// Leave the stored account and count the user as skipped (resuming an interrupted file import).
        case skip
    }

    let store: any AuthStore
    let clock: any WallClock
    let actor: String?

    /// The store aggregates a batch's transaction touches: the import's clashes and inserts, the overwritten accounts'
    /// deletion and its audit, the passkeys' credential IDs.
    typealias Writes = UserImportWrites & UserListingWrites & PasskeysReads & AuditWrites

    /// An importer writing to `store`. The deletion of an overwritten account is audited at `clock`'s time, by
    /// `actor` (`cli` for `flint users import`), or by the request's operator when `nil`.
    package init(store: any AuthStore, clock: any WallClock = SystemClock(), actor: String? = nil) {
        (self.store, self.clock, self.actor) = (store, clock, actor)
    }

    /// Imports `candidates` (their indexes are the batch's numbering) in one transaction.
    package func importBatch(_ candidates: [ImportCandidate], existing: Existing) async throws -> ImportBatchOutcome {
        var outcome = ImportBatchOutcome()
        let unique = Self.firstOccurrences(candidates, failures: &outcome.failures)
        let now = clock.now()
        let origin = AuditOrigin.current
        let written = try await store.write { [self] tx in
            try await write(unique, existing: existing, origin: origin, in: tx, now: now)
        }
        outcome.imported = written.imported
        outcome.skipped = written.skipped
        outcome.failures = (outcome.failures + written.failures).sorted { $0.index < $1.index }
        return outcome
    }

    /// The batch's transaction: `unique`'s users that clash with nothing stored are inserted, an overwritten account
    /// deleted first (an audited deletion); the others are refused or skipped.
    private func write(
        _ unique: [ImportCandidate], existing: Existing, origin: AuditOrigin, in tx: some Writes, now: Instant
    ) async throws -> ImportBatchOutcome {
        let localIDs = unique.map(\.localID)
        let emails = unique.compactMap(\.account.user.email)
        let phones = unique.compactMap(\.account.user.phoneNumber)
        let enrollmentIDs = unique.flatMap { $0.account.enrollments.map(\.enrollmentID) }
        let identities = unique.flatMap { $0.account.identities.map(\.key) }
        let clashes = try await tx.importClashes(
            tenant: .scoped,
            localIDs: localIDs, emails: emails, phoneNumbers: phones, enrollmentIDs: enrollmentIDs, identities: identities)
        var result = ImportBatchOutcome()
        var accepted: [UserAndFactors] = []
        var replaced: [String] = []
        for candidate in unique {
            var account = candidate.account
            let id = account.user.localID
            let generation = clashes.generations[id]
            if generation != nil, existing == .skip {
                result.skipped += 1
                continue
            }
            let overwriting = generation != nil && existing == .overwrite
            if let message = Self.clash(account, clashes: clashes, overwriting: overwriting) {
                result.failures.append(.init(index: candidate.index, message: message))
                continue
            }
            if try await Self.passkeyClash(account, in: tx, overwriting: overwriting) {
                result.failures.append(.init(index: candidate.index, message: Self.passkeyTaken))
                continue
            }
            if let generation {
                // The replaced account's tokens must stay revoked: its generation moves on.
                account.user.revocationGeneration = generation + 1
                replaced.append(id)
            }
            accepted.append(account)
        }
        if !replaced.isEmpty {
            // An overwrite deletes the stored account (and its sessions and factors) before the import's copy
            // goes in: an audited deletion.
            for id in try await tx.deleteUsers(tenant: .scoped, localIDs: replaced).sorted() {
                var event = origin.event(.accountDeleted, uid: id, at: now, ["replacedByImport": true])
                if let actor { event.actor = actor }
                try await tx.appendAuditEvent(event)
            }
        }
        if !accepted.isEmpty { try await tx.insertImportedUsers(accepted) }
        result.imported = accepted.count
        return result
    }

    /// Firebase's message for a user that clashes with stored data, or `nil`.
    static func clash(_ account: UserAndFactors, clashes: ImportClashes, overwriting: Bool) -> String? {
        let id = account.user.localID
        if clashes.generations[id] != nil, !overwriting { return "localId belongs to an existing account - can not overwrite." }
        if let email = account.user.email, let owner = clashes.emailOwners[email], owner != id {
            return "email exists in other account in database"
        }
        if let phone = account.user.phoneNumber, let owner = clashes.phoneOwners[phone], owner != id {
            return "phone number exists in other account in database"
        }
        for enrollment in account.enrollments {
            if let owner = clashes.enrollmentOwners[enrollment.enrollmentID], owner != id || !overwriting { return "Enrollment id already exists." }
        }
        for identity in account.identities {
            if let owner = clashes.identityOwners[identity.key], owner != id { return rawIDTaken }
        }
        return nil
    }

    /// Firebase's message for a user whose federated identity another account holds, in the store or earlier in the
    /// batch (Firebase writes a batch's users one after the other, so both are the same to it).
    static let rawIDTaken = "raw id exists in other account in database"

    /// The candidates whose ID, email, phone number, second-factor IDs and federated identities no earlier user of the
    /// batch holds; the others are refused.
    static func firstOccurrences(_ candidates: [ImportCandidate], failures: inout [ImportBatchOutcome.Failure]) -> [ImportCandidate] {
        var ids = Set<String>()
        var emails = Set<String>()
        var phones = Set<String>()
        var enrollments = Set<String>()
        var identities = Set<FederatedIdentityKey>()
        var passkeys = Set<String>()
        var out: [ImportCandidate] = []
        out.reserveCapacity(candidates.count)
        for candidate in candidates {
            let user = candidate.account.user
            let factorIDs = candidate.account.enrollments.map(\.enrollmentID)
            let keys = candidate.account.identities.map(\.key)
            let credentialIDs = candidate.account.passkeys.map(\.credentialID)
            let message: String? =
                if ids.contains(user.localID) {
                    "localId appears earlier in this batch"
                } else if let email = user.email, emails.contains(email) {
                    "email exists in other account in this batch"
                } else if let phone = user.phoneNumber, phones.contains(phone) {
                    "phone number exists in other account in this batch"
                } else if factorIDs.contains(where: enrollments.contains) {
                    "Enrollment id already exists."
                } else if keys.contains(where: identities.contains) {
                    rawIDTaken
                } else if credentialIDs.contains(where: passkeys.contains) {
                    "passkey credentialId exists in other account in this batch"
                } else {
                    nil
                }
            if let message {
                failures.append(.init(index: candidate.index, message: message))
                continue
            }
            ids.insert(user.localID)
            if let email = user.email { emails.insert(email) }
            if let phone = user.phoneNumber { phones.insert(phone) }
            enrollments.formUnion(factorIDs)
            identities.formUnion(keys)
            passkeys.formUnion(credentialIDs)
            out.append(candidate)
        }
        return out
    }
}
