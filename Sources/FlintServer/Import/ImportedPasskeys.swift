import FlintCore
import FlintStore

/// Passkeys in an import (`passkeyInfo`). Identity Platform lists a passkey as `name` and `credentialId` only, which
/// cannot verify a sign-in; Flint's export adds what can (`publicKey`, the COSE key as base64url; `rpId`;
/// `signCount`; `transports`; `createdAt` in milliseconds), and an import needs the key and its RP ID.
extension UserImportParser {
    /// The refusal of an entry without its key material (a Firebase export's passkey).
    static let passkeyWithoutKey = "passkeyInfo needs publicKey and rpId (Flint's export carries them); enrol the passkey again instead"

    /// The user's passkeys; credential IDs are unique within the user and stored as base64url.
    func passkeys(_ fields: ImportFields, localID: String) throws -> [PasskeyRecord] {
        var out: [PasskeyRecord] = []
        var seen = Set<String>()
        for entry in try fields.objects("passkeyInfo") {
            guard let id = try entry.bytes("credentialId"), !id.isEmpty else { throw ImportRefusal.refused("passkeyInfo needs a credentialId") }
            guard id.count <= PasskeyFlow.maxCredentialIDLength else { throw ImportRefusal.refused("passkeyInfo credentialId is too long") }
            guard let key = try entry.bytes("publicKey"), !key.isEmpty, let rpID = try entry.string("rpId"), !rpID.isEmpty else {
                throw ImportRefusal.refused(Self.passkeyWithoutKey)
            }
            do {
                _ = try COSEKey(bytes: key)
            } catch {
                throw ImportRefusal.refused("passkeyInfo publicKey is not a COSE key Flint verifies (ES256 or RS256)")
            }
            let signCount = try entry.int64("signCount") ?? 0
            guard (0...Int64(UInt32.max)).contains(signCount) else { throw ImportRefusal.refused("passkeyInfo signCount is out of range") }
            let credentialID = Base64URL.encode(id)
            guard seen.insert(credentialID).inserted else { throw ImportRefusal.refused("passkey credentialId appears twice") }
            let transports = (entry.value("transports")?.arrayValue ?? []).compactMap(\.stringValue).filter { !$0.isEmpty && !$0.contains(",") }
            out.append(
                PasskeyRecord(
                    tenant: .scoped, credentialID: credentialID, localID: localID, publicKey: Base64URL.encode(key), rpID: rpID.lowercased(),
                    signCount: signCount,
                    name: try entry.string("name").map { String($0.prefix(PasskeyFlow.maxNameLength)) }, transports: transports,
                    createdAt: try entry.int64("createdAt").map(Instant.init(millisecondsSince1970:)) ?? now))
        }
        return out
    }
}

extension UserImporter {
    /// Firebase-style message for a user with a passkey another account holds (in the store, or an account this one
    /// does not overwrite).
    static let passkeyTaken = "passkey credentialId exists in other account in database"

    /// Whether one of `account`'s passkeys is held by another account in `tx` (or, unless `overwriting`, by this one).
    static func passkeyClash(_ account: UserAndFactors, in tx: any PasskeysReads, overwriting: Bool) async throws -> Bool {
        for passkey in account.passkeys {
            if let held = try await tx.passkey(tenant: .scoped, credentialID: passkey.credentialID),
                held.localID != account.user.localID || !overwriting
            {
                return true
            }
        }
        return false
    }
}
