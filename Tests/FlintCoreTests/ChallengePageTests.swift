import Testing

@testable import FlintCore

@Suite("The web challenge page's words")
struct ChallengePageTests {
    @Test("every locale of the action pages has the challenge page's words too, none empty")
    func sameLocales() {
        #expect(Set(ChallengePageStrings.builtIn.keys) == Set(ActionPageStrings.builtIn.keys))
        for (locale, words) in ChallengePageStrings.builtIn {
            let all = [words.title, words.intro, words.button, words.checking, words.needsSecureConnection, words.needsJavaScript]
            #expect(all.allSatisfy { !$0.isEmpty }, "\(locale)")
        }
        #expect(ChallengePageStrings.negotiate(["zh-Hant-TW"]).locale == "zh-TW")
        #expect(ChallengePageStrings.negotiate(["pt"]).locale == "pt-BR")
        #expect(ChallengePageStrings.negotiate(["xx"]).locale == "en")
    }
}
