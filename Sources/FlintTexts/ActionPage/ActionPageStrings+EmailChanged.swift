extension ActionPageStrings {
    /// The title and text of the page after a verified email change (`mode=verifyAndChangeEmail`), by the locales of
    /// ``builtIn``. The change ends the account's sessions, so the text asks the person to sign in again.
    static let emailChanged: [String: (title: String, body: String)] = [
        "en": ("Email address changed", "Your {app} account now uses this email address. Sign in to {app} again with it."),
        "fr": (
            "Adresse e-mail modifiée", "Votre compte {app} utilise désormais cette adresse e-mail. Reconnectez-vous à {app} avec celle-ci."
        ),
        "de": (
            "E-Mail-Adresse geändert",
            "Ihr Konto bei {app} verwendet jetzt diese E-Mail-Adresse. Bitte melden Sie sich damit erneut bei {app} an."
        ),
        "es": (
            "Correo electrónico cambiado",
            "Tu cuenta de {app} ahora usa esta dirección de correo electrónico. Vuelve a iniciar sesión en {app} con ella."
        ),
        "it": ("Indirizzo email modificato", "Il tuo account {app} ora usa questo indirizzo email. Accedi di nuovo a {app} con questo indirizzo."),
        "pt-BR": ("E-mail alterado", "Sua conta do {app} agora usa este endereço de e-mail. Faça login em {app} novamente com ele."),
        "tr": ("E-posta adresi değiştirildi", "{app} hesabınız artık bu e-posta adresini kullanıyor. Bu adresle {app} için yeniden oturum açın."),
        "ar": ("تم تغيير البريد الإلكتروني", "أصبح حسابك في {app} يستخدم عنوان البريد الإلكتروني هذا. سجّل الدخول إلى {app} مجددًا باستخدامه."),
        "ru": ("Адрес изменён", "Теперь ваш аккаунт {app} использует этот адрес электронной почты. Войдите в {app} снова, используя его."),
        "ja": ("メールアドレスを変更しました", "{app} アカウントのメールアドレスが変更されました。新しいメールアドレスで {app} に再度ログインしてください。"),
        "zh-CN": ("电子邮件地址已更改", "您的 {app} 账号现在使用此电子邮件地址。请使用新地址重新登录 {app}。"),
        "zh-TW": ("電子郵件地址已變更", "您的 {app} 帳戶現在使用這個電子郵件地址。請使用新地址重新登入 {app}。"),
    ]
}
