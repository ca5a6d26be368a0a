import FlintCore
import FlintStore

/// The SAML providers' service-provider private keys (`saml_sp_keys`) are sealed as the token-signing keys are, each
/// bound to its tenant and provider (`saml-sp-key:PROVIDER`, `saml-sp-key:tenants/TENANT/PROVIDER`); their
/// certificates are public and kept in clear.
extension SecretsAtRest {
    /// The name the envelope of a provider's SP key is bound to.
    static func samlSPKeyName(tenant: TenantID, providerID: String) -> String {
        "saml-sp-key:" + (tenant.isDefault ? "" : tenantOwner(tenant.rawValue) + "/") + providerID
    }

    /// The stored form of a provider's SP private key PEM.
    func sealSAMLSPKey(_ pem: String, tenant: TenantID, providerID: String) throws -> String {
        guard let masterKey else { return pem }
        return try SealedSecret.seal(Array(pem.utf8), name: Self.samlSPKeyName(tenant: tenant, providerID: providerID), with: masterKey)
    }

    /// A stored SP key's private PEM.
    /// - Throws: ``MasterKeyError`` when it is sealed with another key or does not open.
    func openSAMLSPKey(_ record: SAMLSPKeyRecord) throws -> String {
        let name = Self.samlSPKeyName(tenant: record.tenant, providerID: record.providerID)
        return String(decoding: try SealedSecret.open(record.privateKeyPEM, name: name, with: masterKey), as: UTF8.self)
    }

    /// Inside `tx`: checks that every SP key opens with this key and seals those kept in clear, when there is a key.
    /// - Returns: how many were sealed.
    func sealSAMLSPKeysInClear(in tx: any ConfigWrites) async throws -> Int {
        var sealed = 0
        for var record in try await tx.samlSPKeys(tenant: nil, providerID: nil) {
            let pem = try openSAMLSPKey(record)
            guard !SealedSecret.isSealed(record.privateKeyPEM), masterKey != nil else { continue }
            record.privateKeyPEM = try sealSAMLSPKey(pem, tenant: record.tenant, providerID: record.providerID)
            _ = try await tx.replaceSAMLSPKey(record)
            sealed += 1
        }
        return sealed
    }

    /// Inside `tx`: seals every SP key again under `next`'s key (opened with this one).
    /// - Returns: how many were sealed under the new key.
    func rewrapSAMLSPKeys(in tx: any ConfigWrites, to next: SecretsAtRest) async throws -> Int {
        let records = try await tx.samlSPKeys(tenant: nil, providerID: nil)
        for var record in records {
            record.privateKeyPEM = try next.sealSAMLSPKey(try openSAMLSPKey(record), tenant: record.tenant, providerID: record.providerID)
            _ = try await tx.replaceSAMLSPKey(record)
        }
        return records.count
    }
}
