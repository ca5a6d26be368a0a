import FlintCore
import FlintStore

/// The webhook subscriptions' signing secrets (`whsec_…`), sealed with the master key like the other secrets, each
/// bound to its subscription.
extension SecretsAtRest {
    /// The name a subscription's secret is bound to.
    static func webhookSecretName(_ id: String) -> String { "webhook-secret:" + id }

    /// The stored form of subscription `id`'s secret.
    func sealWebhookSecret(_ secret: String, id: String) throws -> String {
        guard let masterKey else { return secret }
        return try SealedSecret.seal(Array(secret.utf8), name: Self.webhookSecretName(id), with: masterKey)
    }

    /// Subscription `id`'s secret from its stored form.
    /// - Throws: ``MasterKeyError`` when it is sealed with another key or does not open.
    func openWebhookSecret(_ stored: String, id: String) throws -> String {
        String(decoding: try SealedSecret.open(stored, name: Self.webhookSecretName(id), with: masterKey), as: UTF8.self)
    }

    /// Checks that every subscription's secret opens, and seals those kept in clear; returns how many were sealed.
    func sealWebhookSecretsInClear(in tx: any WebhooksWrites) async throws -> Int {
        var sealed = 0
        for subscription in try await tx.webhookSubscriptions() {
            let secret = try openWebhookSecret(subscription.secret, id: subscription.id)
            if !SealedSecret.isSealed(subscription.secret), masterKey != nil {
                try await tx.replaceWebhookSecret(id: subscription.id, with: try sealWebhookSecret(secret, id: subscription.id))
                sealed += 1
            }
        }
        return sealed
    }

    /// Seals every subscription's secret again under `next`; returns how many.
    func rewrapWebhookSecrets(in tx: any WebhooksWrites, to next: SecretsAtRest) async throws -> Int {
        let subscriptions = try await tx.webhookSubscriptions()
        for subscription in subscriptions {
            let secret = try openWebhookSecret(subscription.secret, id: subscription.id)
            try await tx.replaceWebhookSecret(id: subscription.id, with: try next.sealWebhookSecret(secret, id: subscription.id))
        }
        return subscriptions.count
    }
}
