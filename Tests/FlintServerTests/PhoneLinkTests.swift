import FlintCore
import FlintServerTestSupport
import Foundation
import Hummingbird
import Testing

@testable import FlintServer

@Suite("Phone: operations (REAUTH, LINK, UPDATE) and temporary proofs")
struct PhoneLinkTests {
    /// Sends a code to `phone` and returns a session and its code.
    private func proofOf(_ phone: String, _ api: API) async throws -> (String, String) {
        let sessionInfo = try await api.sendCode(phone)
        return (sessionInfo, try await api.pendingCode(for: phone))
    }

    @Test("REAUTH for a number without an account is USER_NOT_FOUND and creates no user")
    func reauthUnknown() async throws {
        try await withFlint { api in
            let (sessionInfo, code) = try await proofOf(alice, api)
            let reply = try await api.verify(sessionInfo, code: code, extra: ["operation": "REAUTH"])
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == "USER_NOT_FOUND")
            let lookup = try await api.call(
                .post, Path.lookup, body: #"{"phoneNumber":["\#(alice)"]}"#, headers: [.authorization: "Bearer owner"]
            )
            #expect(lookup["users"] == nil)
        }
    }

    @Test("REAUTH for an existing number signs that user in again")
    func reauthKnown() async throws {
        try await withFlint { api in
            let first = try await api.signIn(alice)
            let again = try await api.signIn(alice, extra: ["operation": "REAUTH"])
            #expect(again.localId == first.localId)
            #expect(again.reply["isNewUser"] == .bool(false))
        }
    }

    @Test("REAUTH with an idToken re-authenticates the number's owner and moves no number")
    func reauthIgnoresIDToken() async throws {
        try await withFlint { api in
            let user = try await api.signIn(alice)
            let other = try await api.signIn(bob)
            let again = try await api.signIn(alice, extra: ["operation": "REAUTH", "idToken": other.idToken])
            #expect(again.localId == user.localId)
            let bobNow = try await api.lookup(other.idToken)
            #expect(bobNow["users"]?.arrayValue?.first?["phoneNumber"]?.stringValue == bob)
        }
    }

    @Test("LINK and UPDATE with an idToken put the number on that user", arguments: ["LINK", "UPDATE"])
    func linkPutsNumber(_ operation: String) async throws {
        try await withFlint { api in
            let user = try await api.signIn(alice)
            let (sessionInfo, code) = try await proofOf(bob, api)
            let linked = try API.signedIn(
                try await api.verify(sessionInfo, code: code, extra: ["operation": operation, "idToken": user.idToken])
            )
            #expect(linked.localId == user.localId)
            #expect(linked.reply["phoneNumber"]?.stringValue == bob)
            #expect(linked.reply["isNewUser"] == .bool(false))
            #expect(try JWT.payload(linked.idToken)["phone_number"]?.stringValue == bob)

            let lookup = try await api.lookup(linked.idToken)
            #expect(lookup["users"]?.arrayValue?.first?["phoneNumber"]?.stringValue == bob)

            // The old number was replaced: signing in with it now makes a new account.
            let other = try await api.signIn(alice)
            #expect(other.localId != user.localId)
            #expect(other.reply["isNewUser"] == .bool(true))
        }
    }

    @Test("LINK without an idToken is MISSING_ID_TOKEN")
    func linkWithoutToken() async throws {
        try await withFlint { api in
            let (sessionInfo, code) = try await proofOf(alice, api)
            let reply = try await api.verify(sessionInfo, code: code, extra: ["operation": "LINK"])
            #expect(reply.errorCode == "MISSING_ID_TOKEN")
        }
    }

    @Test("LINK with a garbage idToken is INVALID_ID_TOKEN")
    func linkWithGarbageToken() async throws {
        try await withFlint { api in
            let (sessionInfo, code) = try await proofOf(alice, api)
            let reply = try await api.verify(sessionInfo, code: code, extra: ["operation": "LINK", "idToken": "a.b.c"])
            #expect(reply.errorCode == "INVALID_ID_TOKEN")
        }
    }

    @Test("an unknown operation is a 400, not a sign-in")
    func unknownOperation() async throws {
        try await withFlint { api in
            let (sessionInfo, code) = try await proofOf(alice, api)
            let reply = try await api.verify(sessionInfo, code: code, extra: ["operation": "SOMETHING_ELSE"])
            #expect(reply.status == .badRequest)
            #expect(reply["idToken"] == nil)
        }
    }

    @Test("linking a number owned by another user answers a temporaryProof that signs the owner in but cannot be linked")
    func temporaryProofFlow() async throws {
        try await withFlint { api in
            let owner = try await api.signIn(alice)
            let other = try await api.signIn(bob)

            let (sessionInfo, code) = try await proofOf(alice, api)
            let taken = try await api.verify(sessionInfo, code: code, extra: ["operation": "LINK", "idToken": other.idToken])
            #expect(taken.status == .ok, "\(taken.text)")
            #expect(taken["idToken"] == nil)
            #expect(taken["refreshToken"] == nil)
            #expect(taken["phoneNumber"]?.stringValue == alice)
            #expect(taken["temporaryProofExpiresIn"] == .string("3600"))
            let proof = try #require(taken.string("temporaryProof"))

            // The number stayed with its owner.
            let otherLookup = try await api.lookup(other.idToken)
            #expect(otherLookup["users"]?.arrayValue?.first?["phoneNumber"]?.stringValue == bob)

            // The proof signs the owner in.
            let signedIn = try API.signedIn(try await api.post(Path.signIn, ["temporaryProof": proof, "phoneNumber": alice]))
            #expect(signedIn.localId == owner.localId)
            #expect(signedIn.reply["isNewUser"] == .bool(false))

            // Linking with the proof is refused.
            let link = try await api.post(
                Path.signIn, ["temporaryProof": proof, "phoneNumber": alice, "idToken": other.idToken, "operation": "LINK"]
            )
            #expect(link.status == .badRequest)
            #expect(link.errorCode == "PHONE_NUMBER_EXISTS")
        }
    }

    @Test("a temporaryProof in another formatting of the same number is accepted")
    func proofFormatting() async throws {
        try await withFlint { api in
            let owner = try await api.signIn(alice)
            let other = try await api.signIn(bob)
            let (sessionInfo, code) = try await proofOf(alice, api)
            let taken = try await api.verify(sessionInfo, code: code, extra: ["operation": "LINK", "idToken": other.idToken])
            let proof = try #require(taken.string("temporaryProof"))
            let signedIn = try API.signedIn(try await api.post(Path.signIn, ["temporaryProof": proof, "phoneNumber": "+1 650-555-3434"]))
            #expect(signedIn.localId == owner.localId)
        }
    }

    @Test("a garbage proof or a proof for another number is INVALID_TEMPORARY_PROOF; no number is MISSING_PHONE_NUMBER")
    func invalidTemporaryProof() async throws {
        try await withFlint { api in
            _ = try await api.signIn(alice)
            let other = try await api.signIn(bob)
            let (sessionInfo, code) = try await proofOf(alice, api)
            let taken = try await api.verify(sessionInfo, code: code, extra: ["operation": "LINK", "idToken": other.idToken])
            let proof = try #require(taken.string("temporaryProof"))

            let garbage = try await api.post(Path.signIn, ["temporaryProof": "not-a-proof", "phoneNumber": alice])
            #expect(garbage.errorCode == "INVALID_TEMPORARY_PROOF")
            let wrongNumber = try await api.post(Path.signIn, ["temporaryProof": proof, "phoneNumber": bob])
            #expect(wrongNumber.errorCode == "INVALID_TEMPORARY_PROOF")
            let missingNumber = try await api.post(Path.signIn, ["temporaryProof": proof])
            #expect(missingNumber.errorCode == "MISSING_PHONE_NUMBER")
            // A sessionInfo is not a proof.
            let session = try await api.sendCode(alice)
            let notAProof = try await api.post(Path.signIn, ["temporaryProof": session, "phoneNumber": alice])
            #expect(notAProof.errorCode == "INVALID_TEMPORARY_PROOF")
        }
    }

    @Test("a temporaryProof is not a sessionInfo")
    func proofIsNotSession() async throws {
        try await withFlint { api in
            _ = try await api.signIn(alice)
            let other = try await api.signIn(bob)
            let (sessionInfo, code) = try await proofOf(alice, api)
            let taken = try await api.verify(sessionInfo, code: code, extra: ["operation": "LINK", "idToken": other.idToken])
            let proof = try #require(taken.string("temporaryProof"))
            let reply = try await api.verify(proof, code: "123456")
            #expect(reply.errorCode == "INVALID_SESSION_INFO")
        }
    }

    @Test("linking the user's own number again succeeds with the same user")
    func linkOwnNumber() async throws {
        try await withFlint { api in
            let user = try await api.signIn(alice)
            let (sessionInfo, code) = try await proofOf(alice, api)
            let linked = try API.signedIn(
                try await api.verify(sessionInfo, code: code, extra: ["operation": "LINK", "idToken": user.idToken])
            )
            #expect(linked.localId == user.localId)
        }
    }
}
