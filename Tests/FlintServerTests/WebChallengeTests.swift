import FlintCore
import FlintServerTestSupport
import FlintTesting
import FlintTexts
import Foundation
import Hummingbird
import Testing

@testable import FlintServer

@Suite("App verification: Flint's web challenge at /__/auth/handler")
struct WebChallengeTests {
    @Test("the page has strict headers, no external resource, and its one inline script allowed by hash")
    func pageHeaders() async throws {
        try await withFlint { api in
            let page = try await api.call(.get, Path.handler + "?" + URLQuery.encode(api.challengeQuery()))
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.cacheControl] == "no-store")
            #expect(page.headers[.init("X-Frame-Options")!] == "DENY")
            #expect(page.headers[.init("Referrer-Policy")!] == "no-referrer")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("default-src 'none'"))
            #expect(policy.contains("script-src \(ChallengePage.scriptHash)"))
            #expect(policy.contains("form-action 'self' app-1-123456789-ios-abc123:"))
            #expect(!page.text.contains("src=") && !page.text.contains("href="))
            #expect(page.text.contains("<script>\(ChallengePage.script)</script>"))
            let form = try ChallengeForm(page.text)
            #expect(form.fields["eventId"] == "ABCDEFGHIJ")
            #expect(form.fields["appId"] == "1:123456789:ios:abc123")
        }
    }

    @Test("the page speaks the app's language (hl), right to left for Arabic, English when the language is unknown")
    func localizedPage() async throws {
        try await withFlint { api in
            let turkish = try await api.call(.get, Path.handler + "?" + URLQuery.encode(api.challengeQuery(["hl": "tr-TR"])))
            #expect(turkish.text.contains("<html lang=\"tr\" dir=\"ltr\">"))
            #expect(turkish.text.contains(">Devam</button>"))
            #expect(turkish.text.contains("data-checking=\"Denetleniyor…\""))
            let arabic = try await api.call(.get, Path.handler + "?" + URLQuery.encode(api.challengeQuery(["hl": "ar"])))
            #expect(arabic.text.contains("<html lang=\"ar\" dir=\"rtl\">"))
            #expect(arabic.text.contains("<h1>تحقّق من تطبيقك</h1>"))
            let unknown = try await api.call(.get, Path.handler + "?" + URLQuery.encode(api.challengeQuery(["hl": "xx"])))
            #expect(unknown.text.contains("<html lang=\"en\""))
            #expect(unknown.text.contains(">Continue</button>"))
            // One script for every language: its hash in the policy still matches.
            #expect(arabic.text.contains("<script>\(ChallengePage.script)</script>"))
        }
    }

    @Test("solving the puzzle redirects to the app's scheme with a token the send accepts once")
    func passAndSend() async throws {
        try await withFlint { api in
            try await api.setAppVerification("ENFORCE")
            let reply = try await api.passWebChallenge()
            #expect(reply.status == .seeOther, "\(reply.text)")
            let callback = try ChallengeCallback(location: try #require(reply.headers[.location]))
            #expect(callback.scheme == "app-1-123456789-ios-abc123")
            #expect(callback.inner.path == "/__/auth/callback")
            #expect(callback.inner("authType") == "verifyApp")
            #expect(callback.inner("eventId") == "ABCDEFGHIJ")

            let sent = try await api.send(alice, ["recaptchaToken": callback.token])
            #expect(sent.status == .ok, "\(sent.text)")
            let again = try await api.send(bob, ["recaptchaToken": callback.token])
            #expect(again.errorMessage == "CAPTCHA_CHECK_FAILED : The app verification token has already been used.")
        }
    }

    @Test("with a clientId the scheme is the reversed client ID")
    func clientIDScheme() async throws {
        try await withFlint { api in
            let reply = try await api.passWebChallenge(["appId": "", "clientId": "123456-abc.apps.googleusercontent.com"])
            let callback = try ChallengeCallback(location: try #require(reply.headers[.location]))
            #expect(callback.scheme == "com.googleusercontent.apps.123456-abc")
        }
    }

    @Test("tokens that are forged, expired, or not tokens fail with CAPTCHA_CHECK_FAILED")
    func badTokens() async throws {
        try await withFlint { api in
            try await api.setAppVerification("ENFORCE")
            let reply = try await api.passWebChallenge()
            let token = try ChallengeCallback(location: try #require(reply.headers[.location])).token
            let credential = try await api.appCredential()
            // The token with one character in its middle changed to another: every bit of that character carries data
            // (the last character's low bits may be base64 padding, which decoding ignores).
            var characters = Array(token)
            characters[10] = characters[10] == "A" ? "B" : "A"
            let altered = String(characters)
            for bad in ["garbage", altered, credential.receipt] {
                let sent = try await api.send(alice, ["recaptchaToken": bad])
                #expect(sent.errorCode == "CAPTCHA_CHECK_FAILED", "\(sent.text)")
            }
            api.clock.advance(by: .seconds(301))
            let late = try await api.send(alice, ["recaptchaToken": token])
            #expect(late.errorMessage == "CAPTCHA_CHECK_FAILED : The app verification token has expired.")
        }
    }

    @Test("a wrong solution, a replayed puzzle and an expired puzzle are refused with a fresh page")
    func puzzleRules() async throws {
        try await withFlint { api in
            let page = try await api.call(.get, Path.handler + "?" + URLQuery.encode(api.challengeQuery()))
            var fields = try ChallengeForm(page.text).fields
            let puzzle = try #require(fields["puzzle"])
            func post(_ fields: [String: String]) async throws -> Reply {
                try await api.call(
                    .post, Path.handler, body: URLQuery.encode(fields.sorted { $0.key < $1.key }), contentType: "application/x-www-form-urlencoded")
            }
            var wrong = ProofOfWork.solve(puzzle: puzzle)
            while ProofOfWork.isSolved(puzzle: puzzle, solution: wrong) { wrong = String(Int(wrong)! + 1) }
            fields["solution"] = wrong
            let refused = try await post(fields)
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("The check did not pass."))
            #expect(try ChallengeForm(refused.text).fields["puzzle"] != puzzle)

            fields["solution"] = ProofOfWork.solve(puzzle: puzzle)
            #expect(try await post(fields).status == .seeOther)
            let replay = try await post(fields)
            #expect(replay.status == .badRequest)
            #expect(replay.text.contains("already used"))

            let later = try await api.call(.get, Path.handler + "?" + URLQuery.encode(api.challengeQuery()))
            var stale = try ChallengeForm(later.text).fields
            stale["solution"] = ProofOfWork.solve(puzzle: try #require(stale["puzzle"]))
            api.clock.advance(by: .seconds(601))
            let expired = try await post(stale)
            #expect(expired.status == .badRequest)
            #expect(expired.text.contains("The check expired."))
        }
    }

    @Test(
        "bad parameters get an error page, never a crash",
        arguments: [
            ["authType": "signInViaRedirect"], ["authType": ""], ["apiKey": ""], ["apiKey": "bad key!"], ["ibi": ""], ["ibi": "com.example/../x"],
            ["eventId": ""], ["eventId": "ABC<script>"], ["eventId": String(repeating: "A", count: 65)], ["appId": ""],
            ["appId": "1:2:ios:3 4"], ["appId": "", "clientId": "abc.123"], ["hl": "en\"><b>"],
        ])
    func badParameters(_ overrides: [String: String]) async throws {
        try await withFlint { api in
            let page = try await api.call(.get, Path.handler + "?" + URLQuery.encode(api.challengeQuery(overrides)))
            #expect(page.status == .badRequest)
            #expect(page.text.contains("This link cannot be used"))
            #expect(!page.text.contains("<script>"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            let post = try await api.call(
                .post, Path.handler, body: URLQuery.encode(api.challengeQuery(overrides) + [("puzzle", "x"), ("solution", "1")]),
                contentType: "application/x-www-form-urlencoded")
            #expect(post.status == .badRequest)
        }
    }

    @Test("one client IP gets at most 30 tokens an hour")
    func tokensPerIP() async throws {
        try await withFlint(configure: { $0.trustForwardedFor = true }) { api in
            let headers: HTTPFields = [.init("X-Forwarded-For")!: "198.51.100.9"]
            func pass() async throws -> Reply {
                let page = try await api.call(.get, Path.handler + "?" + URLQuery.encode(api.challengeQuery()))
                var fields = try ChallengeForm(page.text).fields
                fields["solution"] = ProofOfWork.solve(puzzle: try #require(fields["puzzle"]))
                return try await api.call(
                    .post, Path.handler, body: URLQuery.encode(fields.sorted { $0.key < $1.key }), contentType: "application/x-www-form-urlencoded",
                    headers: headers)
            }
            for i in 0..<30 {
                let reply = try await pass()
                #expect(reply.status == .seeOther, "token \(i + 1)")
            }
            let over = try await pass()
            #expect(over.status == .tooManyRequests)
            #expect(over.text.contains("Too many attempts"))
            #expect(over.headers[.location] == nil)
        }
    }

    @Test("in production mode the API key must be one of the configured keys")
    func productionKey() async throws {
        try await withFlint(configure: {
            $0.devMode = false; $0.adminToken = "admin"; $0.apiKeys = ["prod-key"]
        }) { api in
            let refused = try await api.call(.get, Path.handler + "?" + URLQuery.encode(api.challengeQuery()))
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("The API key is not valid for this project."))
            let page = try await api.call(.get, Path.handler + "?" + URLQuery.encode(api.challengeQuery(["apiKey": "prod-key"])))
            #expect(page.status == .ok)
        }
    }
}
