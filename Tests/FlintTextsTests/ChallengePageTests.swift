import Testing

@testable import FlintTexts

@Suite("The web challenge page's words")
struct ChallengePageTests {
    @Test("every locale of the pages has the challenge page's words, none empty, and negotiates as the action pages do")
    func everyLocaleHasTheWords() {
        for (locale, words) in ActionPageStrings.builtIn {
            let all = [words.verifyAppTitle, words.verifyAppBody, words.checking, words.needsSecureConnection, words.needsJavaScript]
            #expect(all.allSatisfy { !$0.isEmpty }, "\(locale)")
        }
        #expect(ActionPageStrings.negotiate(["zh-Hant-TW"]).locale == "zh-TW")
        #expect(ActionPageStrings.negotiate(["pt"]).locale == "pt-BR")
        #expect(ActionPageStrings.negotiate(["xx"]).locale == "en")
    }

    @Test("the page is in the language asked for, with that locale's words and button")
    func pageIsLocalized() throws {
        let form = ChallengePage.Form(
            action: "/__/auth/handler", hidden: [("apiKey", "k")], puzzle: "p", difficulty: 8, appName: "Acme", language: "zh-Hant")
        let page = ChallengePage.challenge(form)
        let words = try #require(ActionPageStrings.builtIn["zh-TW"])
        #expect(page.contains("<html lang=\"zh-TW\""))
        #expect(page.contains("<h1>\(words.verifyAppTitle)</h1>"))
        #expect(page.contains(">\(words.continueButton)</button>"))
        #expect(page.contains("data-checking=\"\(words.checking)\""))
    }
}
