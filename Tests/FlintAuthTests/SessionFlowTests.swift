import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

@Suite("Sessions per device against flint serve")
struct SessionFlowTests {
    @Test("a user lists their sessions, ends one, and signs out everywhere else; the ended apps are signed out at their next refresh")
    func listAndEnd() async throws {
        try await withFlint { server in
            let email = uniqueEmail()
            let phone = server.makeAuth()
            try await phone.createUser(withEmail: email, password: "correct horse")
            let laptop = server.makeAuth()
            try await laptop.signIn(withEmail: email, password: "correct horse")
            let tablet = server.makeAuth()
            try await tablet.signIn(withEmail: email, password: "correct horse")
            let user = try #require(phone.currentUser)

            let sessions = try await user.sessions()
            #expect(sessions.count == 3)
            #expect(sessions.filter(\.isCurrent).count == 1)
            let mine = try #require(sessions.first { $0.isCurrent })
            #expect(mine.device == "FlintAuth" && mine.signInProvider == "password")
            #expect(mine.creationDate != nil && mine.lastUsedDate != nil)

            let laptopUser = try #require(laptop.currentUser)
            let tabletUser = try #require(tablet.currentUser)
            let laptopSession = try #require(try await laptopUser.sessions().first { $0.isCurrent })
            try await user.endSession(laptopSession.id)
            await expectAuthError(.userTokenExpired, "an ended session refreshed") { try await laptopUser.getIDToken(forcingRefresh: true) }
            #expect(laptop.currentUser == nil, "a refused refresh signs the app out")

            #expect(try await user.endOtherSessions() == 1)
            await expectAuthError(.userTokenExpired, "a session ended by sign-out everywhere else refreshed") {
                try await tabletUser.getIDToken(forcingRefresh: true)
            }
            #expect(try await user.getIDToken(forcingRefresh: true).isEmpty == false, "the current session stays")
            #expect(try await user.sessions().map(\.id) == [mine.id])
        }
    }
}
