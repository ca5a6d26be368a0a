package import Foundation

@testable package import FlintSAML

/// A SAMLResponse as an IdP would send it for the tests' SP and IdP; each field changes one thing the verifier checks.
package struct ResponseTemplate {
    package static let sp = SAMLServiceProvider(entityID: "https://flint.test/sp", assertionConsumerServiceURL: "https://flint.test/__/auth/handler")
    package static let idpEntityID = "https://idp.test/metadata"
    package static let now = Date(timeIntervalSince1970: 1_772_366_400)  // 2026-03-01T12:00:00Z
    package static let requestID = "_request0123456789"

    package init() {}

    package var responseID = "_response1"
    package var assertionID = "_assertion1"
    package var responseIssuer: String? = Self.idpEntityID
    package var assertionIssuer = Self.idpEntityID
    package var destination: String? = Self.sp.assertionConsumerServiceURL
    package var responseInResponseTo: String? = Self.requestID
    package var statusCode = "urn:oasis:names:tc:SAML:2.0:status:Success"
    package var statusExtra = ""
    package var nameID = "alice@example.com"
    package var nameIDFormat = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"
    package var confirmationMethod = "urn:oasis:names:tc:SAML:2.0:cm:bearer"
    package var recipient: String? = Self.sp.assertionConsumerServiceURL
    package var confirmationInResponseTo: String? = Self.requestID
    package var confirmationNotOnOrAfter: String? = "2026-03-01T12:05:00Z"
    package var conditionsNotBefore = "2026-03-01T11:59:00Z"
    package var conditionsNotOnOrAfter = "2026-03-01T12:10:00Z"
    package var audiences = [Self.sp.entityID]
    package var authnInstant = "2026-03-01T11:59:30Z"
    package var sessionIndex = "_session42"
    package var attributes: [(String, [String])] = [("email", ["alice@example.com"]), ("groups", ["admins", "staff"])]
    package var assertionExtra = ""
    package var responseExtra = ""

    /// The Assertion element, its namespace declared on itself (as IdPs do, so that it can be signed and moved alone).
    package func assertionXML(id: String? = nil, nameID: String? = nil) -> String {
        let confirmationData =
            ["Recipient": recipient, "InResponseTo": confirmationInResponseTo, "NotOnOrAfter": confirmationNotOnOrAfter]
            .sorted { $0.key < $1.key }.compactMap { key, value in value.map { " \(key)=\"\($0)\"" } }.joined()
        let attributeXML = attributes.map { name, values in
            "<saml:Attribute Name=\"\(name)\">" + values.map { "<saml:AttributeValue>\($0)</saml:AttributeValue>" }.joined()
                + "</saml:Attribute>"
        }.joined()
        return """
            <saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="\(id ?? assertionID)" Version="2.0" \
            IssueInstant="2026-03-01T11:59:30Z"><saml:Issuer>\(assertionIssuer)</saml:Issuer>\(assertionExtra)<saml:Subject>\
            <saml:NameID Format="\(nameIDFormat)">\(nameID ?? self.nameID)</saml:NameID><saml:SubjectConfirmation Method="\(confirmationMethod)">\
            <saml:SubjectConfirmationData\(confirmationData)/></saml:SubjectConfirmation></saml:Subject>\
            <saml:Conditions NotBefore="\(conditionsNotBefore)" NotOnOrAfter="\(conditionsNotOnOrAfter)"><saml:AudienceRestriction>\
            \(audiences.map { "<saml:Audience>\($0)</saml:Audience>" }.joined())</saml:AudienceRestriction></saml:Conditions>\
            <saml:AuthnStatement AuthnInstant="\(authnInstant)" SessionIndex="\(sessionIndex)"><saml:AuthnContext>\
            <saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>\
            </saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement>\(attributeXML)</saml:AttributeStatement></saml:Assertion>
            """
    }

    /// The whole Response around `assertion` (this template's own by default).
    package func xml(assertion: String? = nil) -> String {
        let optional = [("Destination", destination), ("InResponseTo", responseInResponseTo)]
            .compactMap { key, value in value.map { " \(key)=\"\($0)\"" } }.joined()
        return """
            <samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="\(responseID)" Version="2.0" \
            IssueInstant="2026-03-01T11:59:30Z"\(optional)>\
            \(responseIssuer.map { "<saml:Issuer xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\">\($0)</saml:Issuer>" } ?? "")\
            \(responseExtra)<samlp:Status><samlp:StatusCode Value="\(statusCode)"/>\(statusExtra)</samlp:Status>\
            \(assertion ?? assertionXML())</samlp:Response>
            """
    }

    /// A verifier for the tests' SP and the IdP with these certificates.
    package static func verifier(certificates: [String], clockSkew: Duration = .seconds(60), unsolicited: Bool = false) -> SAMLResponseVerifier {
        SAMLResponseVerifier(
            serviceProvider: sp,
            identityProvider: SAMLIdentityProvider(entityID: idpEntityID, singleSignOnURL: "https://idp.test/sso", certificates: certificates),
            clockSkew: clockSkew, allowsUnsolicitedResponses: unsolicited)
    }
}
