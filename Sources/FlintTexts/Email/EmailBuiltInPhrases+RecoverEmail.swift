extension EmailTemplates {
    /// The words of the `RECOVER_EMAIL` email, by locale (the locales of ``builtInPhrases``). It goes to the old
    /// address (`{email}`) after the account's email changed; the link puts that address back and signs the account
    /// out everywhere.
    static let builtInRecoverEmailPhrases: [String: EmailPhrases.ActionPhrases] = [
        "en": .init(
            subject: "The email address of your {app} account was changed",
            intro:
                "The email address of your {app} account was just changed and no longer is {email}. "
                + "If you didn't make this change, use the link below to restore {email} and sign the account out everywhere; "
                + "then choose a new password.",
            button: "Restore my email",
            ignore: "If you changed your email address yourself, you can ignore this email."),
        "fr": .init(
            subject: "L'adresse e-mail de votre compte {app} a été modifiée",
            intro:
                "L'adresse e-mail de votre compte {app} vient d'être modifiée et n'est plus {email}. "
                + "Si vous n'êtes pas à l'origine de cette modification, utilisez le lien ci-dessous pour rétablir {email} "
                + "et déconnecter le compte partout, puis choisissez un nouveau mot de passe.",
            button: "Rétablir mon adresse",
            ignore: "Si vous avez modifié votre adresse e-mail vous-même, vous pouvez ignorer cet e-mail."),
        "de": .init(
            subject: "Die E-Mail-Adresse Ihres Kontos bei {app} wurde geändert",
            intro:
                "Die E-Mail-Adresse Ihres Kontos bei {app} wurde soeben geändert und lautet nicht mehr {email}. "
                + "Falls Sie diese Änderung nicht vorgenommen haben, stellen Sie {email} über den Link unten wieder her "
                + "und melden Sie das Konto überall ab; wählen Sie danach ein neues Passwort.",
            button: "Meine Adresse wiederherstellen",
            ignore: "Wenn Sie Ihre E-Mail-Adresse selbst geändert haben, können Sie diese E-Mail ignorieren."),
        "es": .init(
            subject: "Se cambió el correo electrónico de tu cuenta de {app}",
            intro:
                "La dirección de correo electrónico de tu cuenta de {app} acaba de cambiar y ya no es {email}. "
                + "Si no hiciste este cambio, usa el enlace de abajo para restablecer {email} y cerrar la sesión de la cuenta "
                + "en todas partes; después elige una contraseña nueva.",
            button: "Restablecer mi correo",
            ignore: "Si cambiaste tu dirección de correo electrónico tú mismo, puedes ignorar este correo."),
        "it": .init(
            subject: "L'indirizzo email del tuo account {app} è stato modificato",
            intro:
                "L'indirizzo email del tuo account {app} è appena stato modificato e non è più {email}. "
                + "Se non hai fatto tu questa modifica, usa il link qui sotto per ripristinare {email} e disconnettere "
                + "l'account ovunque, poi scegli una nuova password.",
            button: "Ripristina il mio indirizzo",
            ignore: "Se hai cambiato tu il tuo indirizzo email, puoi ignorare questa email."),
        "pt-BR": .init(
            subject: "O e-mail da sua conta do {app} foi alterado",
            intro:
                "O endereço de e-mail da sua conta do {app} acabou de ser alterado e não é mais {email}. "
                + "Se você não fez essa alteração, use o link abaixo para restaurar {email} e desconectar a conta em todos "
                + "os lugares; depois escolha uma nova senha.",
            button: "Restaurar meu e-mail",
            ignore: "Se você mesmo alterou seu endereço de e-mail, pode ignorar este e-mail."),
        "tr": .init(
            subject: "{app} hesabınızın e-posta adresi değiştirildi",
            intro:
                "{app} hesabınızın e-posta adresi az önce değiştirildi ve artık {email} değil. "
                + "Bu değişikliği siz yapmadıysanız {email} adresini geri yüklemek ve hesabın tüm oturumlarını kapatmak için "
                + "aşağıdaki bağlantıyı kullanın; ardından yeni bir şifre seçin.",
            button: "E-posta adresimi geri yükle",
            ignore: "E-posta adresinizi kendiniz değiştirdiyseniz bu e-postayı yok sayabilirsiniz."),
        "ar": .init(
            subject: "تم تغيير البريد الإلكتروني لحسابك في {app}",
            intro:
                "تم للتو تغيير عنوان البريد الإلكتروني لحسابك في {app} ولم يعد {email}. "
                + "إذا لم تقم بهذا التغيير، فاستخدم الرابط أدناه لاستعادة {email} وتسجيل خروج الحساب من كل مكان، "
                + "ثم اختر كلمة مرور جديدة.",
            button: "استعادة بريدي الإلكتروني",
            ignore: "إذا كنت قد غيّرت عنوان بريدك الإلكتروني بنفسك، فيمكنك تجاهل هذه الرسالة."),
        "ru": .init(
            subject: "Адрес электронной почты вашего аккаунта {app} изменён",
            intro:
                "Адрес электронной почты вашего аккаунта {app} только что изменили, и это больше не {email}. "
                + "Если это сделали не вы, воспользуйтесь ссылкой ниже, чтобы вернуть {email} и завершить все сеансы "
                + "аккаунта, а затем выберите новый пароль.",
            button: "Вернуть мой адрес",
            ignore: "Если вы сами изменили адрес электронной почты, просто проигнорируйте это письмо."),
        "ja": .init(
            subject: "{app} アカウントのメールアドレスが変更されました",
            intro:
                "{app} アカウントのメールアドレスが変更され、{email} ではなくなりました。"
                + "この変更に心当たりがない場合は、下のリンクから {email} を元に戻し、すべての端末でアカウントからログアウトしてください。"
                + "その後、新しいパスワードを設定してください。",
            button: "メールアドレスを元に戻す",
            ignore: "ご自身でメールアドレスを変更した場合は、このメールを無視してください。"),
        "zh-CN": .init(
            subject: "您的 {app} 账号电子邮件地址已更改",
            intro:
                "您的 {app} 账号电子邮件地址刚刚被更改，不再是 {email}。"
                + "如果这不是您本人的操作，请使用下面的链接恢复 {email} 并让账号在所有设备上退出登录，然后设置新密码。",
            button: "恢复我的电子邮件地址",
            ignore: "如果是您本人更改了电子邮件地址，请忽略此邮件。"),
        "zh-TW": .init(
            subject: "您的 {app} 帳戶電子郵件地址已變更",
            intro:
                "您的 {app} 帳戶電子郵件地址剛剛被變更，不再是 {email}。"
                + "如果這不是您本人的操作，請使用下方連結還原 {email} 並讓帳戶在所有裝置上登出，然後設定新密碼。",
            button: "還原我的電子郵件地址",
            ignore: "如果是您本人變更了電子郵件地址，請忽略這封郵件。"),
    ]
}
