import FlintSAMLTestSupport
import Foundation
import Testing

@testable import FlintSAML

/// No DTDs: XXE and entity expansion are refused before anything they declare is read.
@Suite struct SAMLParsingTests {
    @Test func billionLaughsIsRefused() throws {
        let entities = (1...9).map { "<!ENTITY lol\($0) \"" + String(repeating: "&lol\($0 - 1);", count: 10) + "\">" }.joined()
        let xml =
            #"<?xml version="1.0"?><!DOCTYPE samlp:Response [<!ENTITY lol0 "lol">\#(entities)]>"#
            + ResponseTemplate().xml().replacingOccurrences(of: "alice@example.com</saml:NameID>", with: "&lol9;</saml:NameID>")
        #expect(try Fixture.refusal(xml) == .doctypeNotAllowed)
    }

    @Test func anExternalEntityIsRefused() throws {
        let xml =
            #"<?xml version="1.0"?><!DOCTYPE samlp:Response [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>"#
            + ResponseTemplate().xml().replacingOccurrences(of: "alice@example.com</saml:NameID>", with: "&xxe;</saml:NameID>")
        #expect(try Fixture.refusal(xml) == .doctypeNotAllowed)
    }

    @Test func anExternalDTDIsRefused() throws {
        let xml = #"<?xml version="1.0"?><!DOCTYPE samlp:Response SYSTEM "http://127.0.0.1:9/evil.dtd">"# + ResponseTemplate().xml()
        #expect(try Fixture.refusal(xml) == .doctypeNotAllowed)
    }

    @Test func aSignedDocumentWithAnEmptyDoctypeIsStillRefused() throws {
        let signed = try Fixture.signedAssertion()
        let withDoctype = signed.replacingOccurrences(of: "<samlp:Response ", with: "<!DOCTYPE samlp:Response><samlp:Response ")
        #expect(withDoctype != signed)
        #expect(try Fixture.refusal(withDoctype) == .doctypeNotAllowed)
    }

    @Test func theRootMustBeAResponse() throws {
        let assertionOnly = try #require(Fixture.element("<saml:Assertion", "</saml:Assertion>", in: Fixture.signedAssertion()))
        #expect(try Fixture.refusal(assertionOnly) == .malformedMessage("the root element is not a samlp:Response"))
    }

    @Test(arguments: [
        ("2026-03-01T12:00:00Z", 1_772_366_400.0), ("2026-03-01T12:00:00.250Z", 1_772_366_400.25),
        ("2026-03-01T14:00:00+02:00", 1_772_366_400.0), ("1970-01-01T00:00:00Z", 0.0),
    ])
    func dateTimesAreRead(text: String, seconds: Double) {
        #expect(SAMLTime.parse(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: ["2026-03-01T12:00:00", "2026-03-01 12:00:00Z", "2026-13-01T12:00:00Z", "2026-03-01T12:00:00Zjunk", ""])
    func malformedDateTimesAreNot(text: String) {
        #expect(SAMLTime.parse(text) == nil)
    }

    @Test func instantsAreWrittenInUTC() {
        #expect(SAMLTime.format(Date(timeIntervalSince1970: 1_772_366_400.9)) == "2026-03-01T12:00:00Z")
        #expect(SAMLTime.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    }
}
