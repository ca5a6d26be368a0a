#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads and checks the one signed Assertion: Issuer, Subject (NameID, bearer confirmation), Conditions (time window,
/// audience), AuthnStatement and attributes.
struct SAMLAssertionReader {
    let assertion: XMLElement
    let serviceProvider: SAMLServiceProvider
    let identityProvider: SAMLIdentityProvider
    let expectedRequestID: String?
    let window: TimeWindow

    private var saml: String { SAMLNames.assertionNamespace }

    func read() throws(SAMLError) -> SAMLAssertion {
        guard assertion.attribute("Version") == "2.0" else { throw .malformedMessage("the Assertion's Version is not 2.0") }
        guard let id = assertion.attribute("ID"), !id.isEmpty else { throw .malformedMessage("the Assertion has no ID") }
        let issuer = try assertion.requiredChild("Issuer", in: saml).text
        guard issuer == identityProvider.entityID else { throw .issuerMismatch(issuer) }
        let subject = try assertion.requiredChild("Subject", in: saml)
        let nameID = try subject.requiredChild("NameID", in: saml)
        let confirmation = try bearerConfirmation(in: subject)
        let conditionsEnd = try checkConditions()
        let authn = try authnStatement()
        return SAMLAssertion(
            id: id, issuer: issuer, nameID: nameID.text, nameIDFormat: nameID.attribute("Format"), attributes: attributes(),
            sessionIndex: authn.sessionIndex, authnInstant: authn.instant,
            notOnOrAfter: min(confirmation.notOnOrAfter, conditionsEnd ?? confirmation.notOnOrAfter),
            inResponseTo: confirmation.inResponseTo)
    }

    /// The first bearer SubjectConfirmation whose data passes; if none does, the first one's reason.
    private func bearerConfirmation(in subject: XMLElement) throws(SAMLError) -> (notOnOrAfter: Date, inResponseTo: String?) {
        let bearers = subject.children("SubjectConfirmation", in: saml).filter { $0.attribute("Method") == SAMLNames.bearer }
        guard !bearers.isEmpty else { throw .noBearerConfirmation }
        var firstError: SAMLError?
        for bearer in bearers {
            do {
                return try checkBearer(bearer)
            } catch {
                firstError = firstError ?? error
            }
        }
        throw firstError ?? .noBearerConfirmation
    }

    private func checkBearer(_ bearer: XMLElement) throws(SAMLError) -> (notOnOrAfter: Date, inResponseTo: String?) {
        guard let data = try bearer.child("SubjectConfirmationData", in: saml) else {
            throw .malformedMessage("the bearer SubjectConfirmation has no SubjectConfirmationData")
        }
        let recipient = data.attribute("Recipient")
        guard recipient == serviceProvider.assertionConsumerServiceURL else {
            throw .recipientMismatch("the bearer confirmation's Recipient \(recipient ?? "(none)") is not the ACS URL")
        }
        try window.checkNotBefore(data.attribute("NotBefore"), "SubjectConfirmationData NotBefore")
        let end = try window.checkNotOnOrAfter(data.attribute("NotOnOrAfter"), "SubjectConfirmationData NotOnOrAfter", required: true)
        let inResponseTo = data.attribute("InResponseTo")
        try Self.check(inResponseTo: inResponseTo, expected: expectedRequestID, required: true)
        guard let end else { throw .malformedMessage("SubjectConfirmationData NotOnOrAfter is missing") }
        return (end, inResponseTo)
    }

    /// An InResponseTo against the request this sign-in issued: equal when one is expected (and, where `required`,
    /// present); absent when none is (an unsolicited response answers nothing).
    static func check(inResponseTo: String?, expected: String?, required: Bool) throws(SAMLError) {
        switch (inResponseTo, expected) {
        case (nil, nil): return
        case (nil, .some): if required { throw .inResponseToMismatch("missing, and a request was issued") }
        case (.some, nil): throw .inResponseToMismatch("present in an unsolicited response")
        case (.some(let value), .some(let expected)):
            if value != expected { throw .inResponseToMismatch("\(value) is not the request this sign-in issued") }
        }
    }

    /// The Conditions' window and audience; returns their NotOnOrAfter, if any.
    private func checkConditions() throws(SAMLError) -> Date? {
        guard let conditions = try assertion.child("Conditions", in: saml) else {
            throw .malformedMessage("the Assertion has no Conditions")
        }
        try window.checkNotBefore(conditions.attribute("NotBefore"), "Conditions NotBefore")
        let end = try window.checkNotOnOrAfter(conditions.attribute("NotOnOrAfter"), "Conditions NotOnOrAfter", required: false)
        let restrictions = conditions.children("AudienceRestriction", in: saml)
        guard !restrictions.isEmpty else { throw .audienceMismatch }
        for restriction in restrictions {
            let audiences = restriction.children("Audience", in: saml).map(\.text)
            guard audiences.contains(serviceProvider.entityID) else { throw .audienceMismatch }
        }
        return end
    }

    private func authnStatement() throws(SAMLError) -> (instant: Date, sessionIndex: String?) {
        guard let statement = assertion.children("AuthnStatement", in: saml).first else {
            throw .malformedMessage("the Assertion has no AuthnStatement")
        }
        guard let text = statement.attribute("AuthnInstant"), let instant = SAMLTime.parse(text) else {
            throw .malformedMessage("the AuthnStatement has no valid AuthnInstant")
        }
        try window.checkNotOnOrAfter(statement.attribute("SessionNotOnOrAfter"), "AuthnStatement SessionNotOnOrAfter", required: false)
        return (instant, statement.attribute("SessionIndex"))
    }

    private func attributes() -> [String: [String]] {
        var result: [String: [String]] = [:]
        for statement in assertion.children("AttributeStatement", in: saml) {
            for attribute in statement.children("Attribute", in: saml) {
                guard let name = attribute.attribute("Name") else { continue }
                result[name, default: []].append(contentsOf: attribute.children("AttributeValue", in: saml).map(\.text))
            }
        }
        return result
    }
}
