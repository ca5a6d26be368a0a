import Testing

@testable import FlintTexts

@Suite("Email action pages")
struct ActionPageTests {
    static let locales = EmailTemplateTests.builtInLocales
    static let hidden: [(name: String, value: String)] = [("mode", "resetPassword"), ("oobCode", "c0de"), ("apiKey", "AIza")]

    /// One of each page, in `locale`.
    static func allPages(locale: [String], app: String = "Acme", email: String = "ada@example.com") -> [String] {
        [
            ActionPage.signIn(locale: locale, app: app, continueURL: "https://acme.example/finish?oobCode=c"),
            ActionPage.signIn(locale: locale, app: app, continueURL: nil),
            ActionPage.confirmEmail(locale: locale, app: app, email: email, formAction: "/__/auth/action", hidden: hidden),
            ActionPage.resetPassword(locale: locale, app: app, email: email, formAction: "/__/auth/action", hidden: hidden, error: nil),
            ActionPage.resetPassword(locale: locale, app: app, email: email, formAction: "/__/auth/action", hidden: hidden, error: .weakPassword),
        ]
            + ActionPage.Outcome.allCases.map { ActionPage.done(locale: locale, app: app, outcome: $0, continueURL: "https://acme.example/") }
            + ActionPage.Failure.allCases.map { ActionPage.failure(locale: locale, app: app, reason: $0) }
    }

    @Test("Every page is a complete, self-contained HTML5 document in the negotiated locale", arguments: locales)
    func pagesAreCompleteDocuments(locale: String) {
        for page in Self.allPages(locale: [locale]) {
            #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"\(locale)\" dir=\"\(locale == "ar" ? "rtl" : "ltr")\">"))
            #expect(page.contains("<meta charset=\"utf-8\">"))
            #expect(page.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
            #expect(page.contains("<style>"))
            #expect(page.hasSuffix("</html>\n"))
            for forbidden in ["<script", "<link", "src=", "url(", "@import", "http-equiv=\"refresh\"", "{app}", "{email}"] {
                #expect(!page.contains(forbidden), "\(forbidden)")
            }
        }
    }

    @Test("Each locale has its own words", arguments: locales.filter { $0 != "en" })
    func pagesAreTranslated(locale: String) {
        let english = Self.allPages(locale: ["en"])
        for (page, englishPage) in zip(Self.allPages(locale: [locale]), english) {
            #expect(page != englishPage.replacingLang(with: locale))
        }
    }

    @Test(
        "Pages follow locale negotiation",
        arguments: [
            (["fr-CA"], "fr", "Continuer"), (["de-AT"], "de", "Weiter"), (["zh-Hant-TW"], "zh-TW", "繼續"), (["zh-TW"], "zh-TW", "繼續"),
            (["zh-Hans"], "zh-CN", "继续"), (["ar"], "ar", "متابعة"), (["pt"], "pt-BR", "Continuar"), (["xx", "yy"], "en", "Continue"),
            ([], "en", "Continue"),
        ])
    func pagesNegotiate(requested: [String], locale: String, continueLabel: String) {
        let page = ActionPage.signIn(locale: requested, app: "Acme", continueURL: "https://acme.example/")
        #expect(page.contains("<html lang=\"\(locale)\""))
        #expect(page.contains(">\(continueLabel)</a>"))
    }

    @Test("Every interpolated value is escaped")
    func valuesAreEscaped() {
        let app = "<img src=x onerror=alert(1)>&'\""
        let email = "\"><script>x</script>@evil.test"
        for page in Self.allPages(locale: ["en"], app: app, email: email) {
            #expect(!page.contains("<img"))
            #expect(!page.contains("<script"))
            #expect(page.contains("&lt;img src=x onerror=alert(1)&gt;&amp;&#39;&quot;"))
        }
        let hidden: [(name: String, value: String)] = [("a\"b", "<v>&'")]
        let page = ActionPage.confirmEmail(locale: ["en"], app: "A", email: email, formAction: "/x?a=1&b=\"", hidden: hidden)
        #expect(page.contains("<input type=\"hidden\" name=\"a&quot;b\" value=\"&lt;v&gt;&amp;&#39;\">"))
        #expect(page.contains("action=\"/x?a=1&amp;b=&quot;\""))
        #expect(page.contains("Confirm that &quot;&gt;&lt;script&gt;x&lt;/script&gt;@evil.test is your email address for A."))
    }

    @Test("Values are not scanned for placeholders")
    func valuesAreNotRescanned() {
        let page = ActionPage.confirmEmail(locale: ["en"], app: "{email}", email: "{app}", formAction: "/a", hidden: [])
        #expect(page.contains("Confirm that {app} is your email address for {email}."))
    }

    @Test("The sign-in page continues to the given URL, or asks to open the link on the right device")
    func signInPage() {
        let page = ActionPage.signIn(locale: ["en"], app: "Acme", continueURL: "https://acme.example/done?mode=signIn&oobCode=c")
        #expect(page.contains("<title>Sign in to Acme</title>"))
        #expect(page.contains("This link signs you in to Acme."))
        #expect(page.contains("<a class=\"button\" href=\"https://acme.example/done?mode=signIn&amp;oobCode=c\">Continue</a>"))
        #expect(!page.contains("<form"))
        let noURL = ActionPage.signIn(locale: ["en"], app: "Acme", continueURL: nil)
        #expect(!noURL.contains("href="))
        #expect(noURL.contains("open this link on the device where you asked for it"))
    }

    @Test(
        "URLs other than http, https and absolute paths are dropped",
        arguments: ["javascript:alert(1)", " javascript:x", "JaVaScRiPt:x", "data:text/html,x"])
    func unsafeURLsAreDropped(url: String) {
        #expect(!ActionPage.signIn(locale: ["en"], app: "A", continueURL: url).contains("href="))
        #expect(!ActionPage.done(locale: ["en"], app: "A", outcome: .emailVerified, continueURL: url).contains("href="))
        let form = ActionPage.confirmEmail(locale: ["en"], app: "A", email: "e@x", formAction: url, hidden: [])
        #expect(form.contains("<form method=\"post\">"))
        #expect(ActionPage.safeURL("HTTPS://acme.example/") != nil)
        #expect(ActionPage.safeURL("/__/auth/action") != nil)
    }

    @Test("The confirm page is a POST form with the hidden fields and one button, so a GET changes nothing")
    func confirmEmailPage() {
        let page = ActionPage.confirmEmail(locale: ["en"], app: "Acme", email: "ada@example.com", formAction: "/__/auth/action", hidden: Self.hidden)
        #expect(page.contains("<h1>Confirm your email</h1>"))
        #expect(page.contains("Confirm that ada@example.com is your email address for Acme."))
        #expect(page.contains("<form method=\"post\" action=\"/__/auth/action\">"))
        for field in Self.hidden {
            #expect(page.contains("<input type=\"hidden\" name=\"\(field.name)\" value=\"\(field.value)\">"))
        }
        #expect(page.ranges(of: "<button").count == 1)
        #expect(page.contains("<button class=\"button\" type=\"submit\">Confirm</button>"))
    }

    @Test("The reset page has one new-password field, the hidden fields and, on request, the error")
    func resetPasswordPage() {
        let page = ActionPage.resetPassword(
            locale: ["en"], app: "Acme", email: "ada@example.com", formAction: "/__/auth/action", hidden: Self.hidden, error: nil)
        #expect(page.contains("Choose a new password for ada@example.com."))
        let field =
            "<input id=\"newPassword\" name=\"newPassword\" type=\"password\" minlength=\"6\" required "
            + "autocomplete=\"new-password\" aria-describedby=\"password-hint\">"
        #expect(page.contains(field))
        #expect(page.contains("<label for=\"newPassword\">New password</label>"))
        #expect(page.contains("<input type=\"text\" autocomplete=\"username\" value=\"ada@example.com\" readonly hidden>"))
        #expect(page.ranges(of: "type=\"password\"").count == 1)
        #expect(page.ranges(of: "<input type=\"hidden\"").count == Self.hidden.count)
        #expect(!page.contains("class=\"error\""))

        let withError = ActionPage.resetPassword(
            locale: ["en"], app: "Acme", email: "ada@example.com", formAction: "/__/auth/action", hidden: Self.hidden, error: .weakPassword)
        #expect(
            withError.contains("<div class=\"error\" id=\"password-error\" role=\"alert\">This password is too weak. Choose a stronger one.</div>"))
        #expect(withError.contains("aria-describedby=\"password-hint password-error\" aria-invalid=\"true\" autofocus>"))
        let french = ActionPage.resetPassword(locale: ["fr"], app: "A", email: "e@x", formAction: "/a", hidden: [], error: .weakPassword)
        #expect(french.contains("Ce mot de passe est trop faible."))
    }

    @Test("An enforced password policy is listed under the field, and the rules a password missed above it, in the reader's language")
    func passwordPolicyRules() {
        let rules: [PasswordRequirement] = [.minLength(10), .maxLength(64), .uppercase, .numeric]
        let page = ActionPage.resetPassword(
            locale: ["en"], app: "Acme", email: "ada@example.com", formAction: "/a", hidden: [], error: nil, rules: rules)
        #expect(page.contains("minlength=\"10\" maxlength=\"64\" required"))
        #expect(
            page.contains(
                "<div class=\"hint\" id=\"password-hint\"><p>Your password needs:</p><ul><li>at least 10 characters</li>"
                    + "<li>at most 64 characters</li><li>an upper-case letter</li><li>a digit</li></ul></div>"))
        #expect(!page.contains("At least 6 characters."))
        let refused = ActionPage.resetPassword(
            locale: ["tr"], app: "Acme", email: "ada@example.com", formAction: "/a", hidden: [],
            error: .unmetRequirements([.uppercase, .numeric]), rules: rules)
        #expect(refused.contains("<p>Bu şifrede eksik olanlar:</p><ul><li>bir büyük harf</li><li>bir rakam</li></ul>"))
        #expect(refused.contains("aria-invalid=\"true\""))
        let arabic = ActionPage.resetPassword(
            locale: ["ar"], app: "Acme", email: "a@x", formAction: "/a", hidden: [], error: .unmetRequirements([.minLength(10)]), rules: rules)
        #expect(arabic.contains("<li>10 أحرف على الأقل</li>") && arabic.contains("dir=\"rtl\""))
    }

    @Test("Every locale of the pages names every password rule, with the length filled in")
    func passwordRuleLocales() {
        for (tag, words) in ActionPageStrings.builtIn {
            let phrases = [PasswordRequirement.minLength(12), .maxLength(40), .lowercase, .uppercase, .numeric, .nonAlphanumeric].map(words.phrase)
            #expect(phrases[0].contains("12") && phrases[1].contains("40"), "\(tag)")
            #expect(Set(phrases).count == phrases.count && !words.passwordNeeds.isEmpty && !words.passwordMissing.isEmpty, "\(tag)")
        }
    }

    @Test("Result pages say what happened and offer to continue")
    func donePages() {
        let verified = ActionPage.done(locale: ["en"], app: "Acme", outcome: .emailVerified, continueURL: "https://acme.example/")
        #expect(verified.contains("<h1>Email verified</h1>"))
        #expect(verified.contains("href=\"https://acme.example/\""))
        let changed = ActionPage.done(locale: ["de"], app: "Acme", outcome: .passwordChanged, continueURL: nil)
        #expect(changed.contains("<h1>Passwort geändert</h1>"))
        #expect(!changed.contains("href="))
    }

    @Test("Failure pages differ by reason", arguments: locales)
    func failurePages(locale: String) {
        let pages = ActionPage.Failure.allCases.map { ActionPage.failure(locale: [locale], app: "Acme", reason: $0) }
        #expect(Set(pages).count == ActionPage.Failure.allCases.count)
        for page in pages {
            #expect(page.contains("Acme"))
            #expect(!page.contains("<form"))
        }
        if locale == "en" {
            #expect(pages[0].contains("<h1>This link can&#39;t be used</h1>"))
            #expect(pages[1].contains("<h1>This link has expired</h1>"))
        }
    }
}

extension String {
    /// The page with its `lang` attribute changed, to compare words only.
    fileprivate func replacingLang(with locale: String) -> String {
        guard let range = firstRange(of: "lang=\"en\"") else { return self }
        var copy = self
        copy.replaceSubrange(range, with: "lang=\"\(locale)\"")
        return copy
    }
}
