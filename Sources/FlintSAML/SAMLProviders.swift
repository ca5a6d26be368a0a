/// This side of the exchange, the service provider: who it is and where the IdP posts responses.
public struct SAMLServiceProvider: Sendable, Hashable {
    /// The SP entity ID (`spConfig.spEntityId`): the Issuer of requests, the Audience responses must name.
    public var entityID: String
    /// The Assertion Consumer Service URL (`spConfig.callbackUri`): where responses are posted, their Destination and
    /// their bearer confirmation's Recipient.
    public var assertionConsumerServiceURL: String

    public init(entityID: String, assertionConsumerServiceURL: String) {
        self.entityID = entityID
        self.assertionConsumerServiceURL = assertionConsumerServiceURL
    }
}

/// The identity provider as configured (`idpConfig`): the only source of trust for its responses.
public struct SAMLIdentityProvider: Sendable, Hashable {
    /// The IdP entity ID (`idpEntityId`): the Issuer its responses and assertions must carry.
    public var entityID: String
    /// The IdP's single sign-on URL (`ssoUrl`), HTTP-Redirect binding: where AuthnRequests go.
    public var singleSignOnURL: String
    /// The IdP's signing certificates in PEM (`idpCertificates[].x509Certificate`); a signature verifies if one of them
    /// verifies it. Certificates a message carries in its KeyInfo are never used.
    public var certificates: [String]
    /// Whether the IdP wants AuthnRequests signed (`signRequest`).
    public var signRequest: Bool

    public init(entityID: String, singleSignOnURL: String, certificates: [String], signRequest: Bool = false) {
        self.entityID = entityID
        self.singleSignOnURL = singleSignOnURL
        self.certificates = certificates
        self.signRequest = signRequest
    }
}
