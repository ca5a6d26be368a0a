import Crypto
import FlintCore
import FlintTesting
import Testing

@Suite("App verification: sealed tickets, receipt secrets, proof of work, policy")
struct AppVerificationTicketTests {
    let key = SymmetricKey(size: .bits256)

    @Test("a ticket opens with its purpose and key, and with nothing else")
    func sealAndOpen() throws {
        let ticket = AppVerificationTicket(
            purpose: .receipt, projectID: "demo-flint", issuedAt: Instant(secondsSince1970: 1_700_000_000), nonce: Array(repeating: 7, count: 16))
        let text = try ticket.seal(key: key)
        #expect(AppVerificationTicket(opening: text, purpose: .receipt, key: key) == ticket)
        #expect(AppVerificationTicket(opening: text, purpose: .challengeToken, key: key) == nil)
        #expect(AppVerificationTicket(opening: text, purpose: .puzzle, key: key) == nil)
        #expect(AppVerificationTicket(opening: text, purpose: .receipt, key: SymmetricKey(size: .bits256)) == nil)
        #expect(AppVerificationTicket(opening: String(text.dropLast()), purpose: .receipt, key: key) == nil)
        #expect(AppVerificationTicket(opening: "", purpose: .receipt, key: key) == nil)
    }

    @Test("validity: same project, within the lifetime, not from the future")
    func validity() {
        let ticket = AppVerificationTicket(
            purpose: .challengeToken, projectID: "p", issuedAt: Instant(secondsSince1970: 1000), nonce: Array(repeating: 1, count: 16))
        #expect(ticket.isValid(projectID: "p", now: Instant(secondsSince1970: 1000), lifetime: .seconds(300)))
        #expect(ticket.isValid(projectID: "p", now: Instant(secondsSince1970: 1299), lifetime: .seconds(300)))
        #expect(!ticket.isValid(projectID: "p", now: Instant(secondsSince1970: 1300), lifetime: .seconds(300)))
        #expect(!ticket.isValid(projectID: "q", now: Instant(secondsSince1970: 1000), lifetime: .seconds(300)))
        #expect(!ticket.isValid(projectID: "p", now: Instant(secondsSince1970: 900), lifetime: .seconds(300)))
    }

    @Test("a receipt's secret is bound to the receipt and the key")
    func receiptSecret() {
        let secret = AppVerificationTicket.receiptSecret(forReceipt: "r1", key: key)
        #expect(AppVerificationTicket.checkReceiptSecret(secret, receipt: "r1", key: key))
        #expect(!AppVerificationTicket.checkReceiptSecret(secret, receipt: "r2", key: key))
        #expect(!AppVerificationTicket.checkReceiptSecret(secret, receipt: "r1", key: SymmetricKey(size: .bits256)))
        #expect(!AppVerificationTicket.checkReceiptSecret("", receipt: "r1", key: key))
    }

    @Test("proof of work: a found solution passes, others and malformed ones fail")
    func proofOfWork() {
        let solution = ProofOfWork.solve(puzzle: "abc", difficulty: 12)
        #expect(ProofOfWork.isSolved(puzzle: "abc", solution: solution, difficulty: 12))
        let digest = Array(SHA256.hash(data: Array("abc:\(solution)".utf8)))
        #expect(digest[0] == 0 && digest[1] >> 4 == 0)
        for bad in ["", "-1", "12a", String(repeating: "1", count: 21)] {
            #expect(!ProofOfWork.isSolved(puzzle: "abc", solution: bad, difficulty: 0))
        }
        #expect(ProofOfWork.isSolved(puzzle: "abc", solution: "5", difficulty: 0))
    }

    @Test("the policy is read from signIn.phoneNumber.appVerification and validated")
    func policy() throws {
        #expect(ProjectConfig.defaults.appVerification == nil)
        let enforce = try ProjectConfig(document: ["signIn": ["phoneNumber": ["appVerification": "ENFORCE"]]])
        #expect(enforce.appVerification == .enforce)
        let off = try ProjectConfig.defaults.applying(patch: ["signIn": ["phoneNumber": ["appVerification": "OFF"]]], updateMask: nil)
        #expect(off.appVerification == .off)
        #expect(off.phoneSignInEnabled)
        #expect(throws: AuthError.self) { try ProjectConfig(document: ["signIn": ["phoneNumber": ["appVerification": "AUDIT"]]]) }
        // A YAML file's bare OFF arrives as false; it means OFF (true is not taken for ENFORCE).
        let yamlOff = try ProjectConfig(document: ["signIn": ["phoneNumber": ["appVerification": false]]])
        #expect(yamlOff.appVerification == .off)
        #expect(yamlOff.document["signIn"]?["phoneNumber"]?["appVerification"] == "OFF")
        #expect(throws: AuthError.self) { try ProjectConfig(document: ["signIn": ["phoneNumber": ["appVerification": true]]]) }
    }

    @Test("the APNs provider token is ES256 over header and claims")
    func apnsToken() throws {
        let key = P256.Signing.PrivateKey()
        let token = try APNsProviderToken(p8: key.pemRepresentation, keyID: "KEY1234567", teamID: "TEAM123456").token(
            issuedAt: Instant(secondsSince1970: 42))
        let parts = token.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        #expect(Base64URL.decode(parts[0]).map { String(decoding: $0, as: UTF8.self) } == #"{"alg":"ES256","kid":"KEY1234567"}"#)
        #expect(Base64URL.decode(parts[1]).map { String(decoding: $0, as: UTF8.self) } == #"{"iss":"TEAM123456","iat":42}"#)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        #expect(key.publicKey.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8)))
    }
}
