/// The words of the web challenge page in one locale (the locales of the SMS and email texts), chosen by the
/// request's `hl` — the app's `languageCode`.
struct ChallengePageStrings {
    var title: String
    var intro: String
    var button: String
    /// Shown while the browser works out the proof of work.
    var checking: String
    /// Shown when the page is not served over https (WebCrypto is missing).
    var needsSecureConnection: String
    var needsJavaScript: String

    /// The strings for the best locale for `requested` (English when nothing matches), and that locale's tag.
    static func negotiate(_ requested: [String]) -> (locale: String, strings: ChallengePageStrings) {
        let locale = LocaleNegotiation.bestMatch(for: requested, index: index)
        return (builtIn[locale] == nil ? LocaleNegotiation.fallback : locale, builtIn[locale] ?? english)
    }

    private static let index = LocaleNegotiation.index(builtIn.keys.sorted())

    static let english = ChallengePageStrings(
        title: "Verify your app", intro: "Confirm that you are using the app to continue signing in with your phone number.",
        button: "Continue", checking: "Checking…", needsSecureConnection: "This check needs a secure (https) connection.",
        needsJavaScript: "This check needs JavaScript.")

    static let builtIn: [String: ChallengePageStrings] = [
        "en": english,
        "fr": .init(
            title: "Vérifiez votre application",
            intro: "Confirmez que vous utilisez l’application pour poursuivre la connexion avec votre numéro de téléphone.",
            button: "Continuer", checking: "Vérification…", needsSecureConnection: "Cette vérification nécessite une connexion sécurisée (https).",
            needsJavaScript: "Cette vérification nécessite JavaScript."),
        "de": .init(
            title: "App bestätigen",
            intro: "Bestätigen Sie, dass Sie die App verwenden, um die Anmeldung mit Ihrer Telefonnummer fortzusetzen.",
            button: "Weiter", checking: "Wird geprüft…", needsSecureConnection: "Diese Prüfung erfordert eine sichere Verbindung (https).",
            needsJavaScript: "Diese Prüfung erfordert JavaScript."),
        "es": .init(
            title: "Verifica tu aplicación",
            intro: "Confirma que estás usando la aplicación para continuar el inicio de sesión con tu número de teléfono.",
            button: "Continuar", checking: "Comprobando…", needsSecureConnection: "Esta comprobación necesita una conexión segura (https).",
            needsJavaScript: "Esta comprobación necesita JavaScript."),
        "it": .init(
            title: "Verifica l’app", intro: "Conferma che stai usando l’app per continuare l’accesso con il tuo numero di telefono.",
            button: "Continua", checking: "Verifica in corso…", needsSecureConnection: "Questa verifica richiede una connessione sicura (https).",
            needsJavaScript: "Questa verifica richiede JavaScript."),
        "pt-BR": .init(
            title: "Verifique seu app", intro: "Confirme que você está usando o app para continuar o login com seu número de telefone.",
            button: "Continuar", checking: "Verificando…", needsSecureConnection: "Esta verificação precisa de uma conexão segura (https).",
            needsJavaScript: "Esta verificação precisa de JavaScript."),
        "tr": .init(
            title: "Uygulamanızı doğrulayın",
            intro: "Telefon numaranızla oturum açmaya devam etmek için uygulamayı kullandığınızı onaylayın.", button: "Devam",
            checking: "Denetleniyor…", needsSecureConnection: "Bu denetim güvenli (https) bir bağlantı gerektirir.",
            needsJavaScript: "Bu denetim JavaScript gerektirir."),
        "ar": .init(
            title: "تحقّق من تطبيقك", intro: "أكّد أنك تستخدم التطبيق لمتابعة تسجيل الدخول برقم هاتفك.", button: "متابعة",
            checking: "جارٍ التحقق…", needsSecureConnection: "يتطلب هذا التحقق اتصالًا آمنًا (https).",
            needsJavaScript: "يتطلب هذا التحقق تفعيل JavaScript."),
        "ru": .init(
            title: "Подтвердите приложение", intro: "Подтвердите, что вы используете приложение, чтобы продолжить вход по номеру телефона.",
            button: "Продолжить", checking: "Проверка…", needsSecureConnection: "Для этой проверки нужно защищённое соединение (https).",
            needsJavaScript: "Для этой проверки нужен JavaScript."),
        "ja": .init(
            title: "アプリの確認", intro: "電話番号でのログインを続けるには、アプリを使用していることを確認してください。", button: "続行",
            checking: "確認しています…", needsSecureConnection: "この確認には安全な接続（https）が必要です。",
            needsJavaScript: "この確認には JavaScript が必要です。"),
        "zh-CN": .init(
            title: "验证您的应用", intro: "请确认您正在使用该应用，以继续使用手机号码登录。", button: "继续", checking: "正在检查…",
            needsSecureConnection: "此检查需要安全连接（https）。", needsJavaScript: "此检查需要启用 JavaScript。"),
        "zh-TW": .init(
            title: "驗證您的應用程式", intro: "請確認您正在使用此應用程式，以繼續使用電話號碼登入。", button: "繼續", checking: "正在檢查…",
            needsSecureConnection: "此檢查需要安全連線（https）。", needsJavaScript: "此檢查需要啟用 JavaScript。"),
    ]
}
