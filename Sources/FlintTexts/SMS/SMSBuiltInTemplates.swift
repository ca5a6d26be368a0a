extension SMSTemplates {
    /// The texts behind ``builtIn``. Kept short: non-Latin scripts are sent as UCS-2,
    /// where one SMS segment holds only 70 characters.
    static let builtInTexts: [String: [SMSPurpose: String]] = [
        "en": [
            .signIn: "{code} is your verification code for {app}.",
            .mfaEnrollment: "{code} is your code to turn on 2-Step Verification for {app}.",
            .mfaSignIn: "{code} is your 2-Step Verification code for {app}.",
        ],
        "fr": [
            .signIn: "{code} est votre code de validation pour {app}.",
            .mfaEnrollment: "{code} est votre code pour activer la validation en deux étapes sur {app}.",
            .mfaSignIn: "{code} est votre code de validation en deux étapes pour {app}.",
        ],
        "de": [
            .signIn: "{code} ist Ihr Bestätigungscode für {app}.",
            .mfaEnrollment: "{code} ist Ihr Code zum Aktivieren der Bestätigung in zwei Schritten für {app}.",
            .mfaSignIn: "{code} ist Ihr Code für die Bestätigung in zwei Schritten bei {app}.",
        ],
        "es": [
            .signIn: "{code} es tu código de verificación para {app}.",
            .mfaEnrollment: "{code} es tu código para activar la verificación en dos pasos en {app}.",
            .mfaSignIn: "{code} es tu código de verificación en dos pasos para {app}.",
        ],
        "it": [
            .signIn: "{code} è il tuo codice di verifica per {app}.",
            .mfaEnrollment: "{code} è il tuo codice per attivare la verifica in due passaggi su {app}.",
            .mfaSignIn: "{code} è il tuo codice di verifica in due passaggi per {app}.",
        ],
        "pt-BR": [
            .signIn: "{code} é o seu código de verificação para {app}.",
            .mfaEnrollment: "{code} é o seu código para ativar a verificação em duas etapas em {app}.",
            .mfaSignIn: "{code} é o seu código de verificação em duas etapas para {app}.",
        ],
        "tr": [
            .signIn: "{app} için doğrulama kodunuz: {code}",
            .mfaEnrollment: "{app} için iki adımlı doğrulamayı etkinleştirme kodunuz: {code}",
            .mfaSignIn: "{app} için iki adımlı doğrulama kodunuz: {code}",
        ],
        "ar": [
            .signIn: "رمز التحقق الخاص بك في {app} هو {code}",
            .mfaEnrollment: "رمز تفعيل التحقق بخطوتين في {app} هو {code}",
            .mfaSignIn: "رمز التحقق بخطوتين في {app} هو {code}",
        ],
        "ru": [
            .signIn: "{code} — ваш код подтверждения для {app}.",
            .mfaEnrollment: "{code} — ваш код для включения двухэтапной аутентификации в {app}.",
            .mfaSignIn: "{code} — ваш код двухэтапной аутентификации для {app}.",
        ],
        "ja": [
            .signIn: "{app} の確認コードは {code} です。",
            .mfaEnrollment: "{app} の 2 段階認証を設定するためのコードは {code} です。",
            .mfaSignIn: "{app} の 2 段階認証コードは {code} です。",
        ],
        "zh-CN": [
            .signIn: "您的 {app} 验证码为 {code}。",
            .mfaEnrollment: "您用于开启 {app} 两步验证的验证码为 {code}。",
            .mfaSignIn: "您的 {app} 两步验证码为 {code}。",
        ],
        "zh-TW": [
            .signIn: "您的 {app} 驗證碼為 {code}。",
            .mfaEnrollment: "您用於啟用 {app} 兩步驟驗證的驗證碼為 {code}。",
            .mfaSignIn: "您的 {app} 兩步驟驗證碼為 {code}。",
        ],
    ]
}
