extension EmailTemplates {
    /// The words of the `VERIFY_AND_CHANGE_EMAIL` email, by locale (the locales of ``builtInPhrases``). It goes to
    /// the new address (`{email}`); the account's email changes only when the link is followed.
    static let builtInChangeEmailPhrases: [String: EmailPhrases.ActionPhrases] = [
        "en": .init(
            subject: "Confirm your new email for {app}",
            intro:
                "We received a request to change the email address of your {app} account to {email}. "
                + "Use the link below to confirm the new address; the change takes effect once you do.",
            button: "Confirm new email",
            ignore: "If you didn't ask to change your email address, you can ignore this email. Your account won't change."),
        "fr": .init(
            subject: "Confirmez votre nouvelle adresse e-mail pour {app}",
            intro:
                "Nous avons reçu une demande de modification de l'adresse e-mail de votre compte {app} en {email}. "
                + "Utilisez le lien ci-dessous pour confirmer la nouvelle adresse\u{A0}; la modification prend effet dès votre confirmation.",
            button: "Confirmer la nouvelle adresse",
            ignore:
                "Si vous n'avez pas demandé à modifier votre adresse e-mail, vous pouvez ignorer cet e-mail. "
                + "Votre compte ne sera pas modifié."),
        "de": .init(
            subject: "Neue E-Mail-Adresse für {app} bestätigen",
            intro:
                "Wir haben eine Anfrage erhalten, die E-Mail-Adresse Ihres Kontos bei {app} in {email} zu ändern. "
                + "Bitte bestätigen Sie die neue Adresse über den Link unten; die Änderung wird erst danach wirksam.",
            button: "Neue Adresse bestätigen",
            ignore:
                "Falls Sie keine Änderung Ihrer E-Mail-Adresse angefordert haben, können Sie diese E-Mail ignorieren. "
                + "Ihr Konto bleibt unverändert."),
        "es": .init(
            subject: "Confirma tu nuevo correo electrónico para {app}",
            intro:
                "Recibimos una solicitud para cambiar la dirección de correo electrónico de tu cuenta de {app} a {email}. "
                + "Usa el enlace de abajo para confirmar la nueva dirección; el cambio se aplicará cuando lo hagas.",
            button: "Confirmar nuevo correo",
            ignore: "Si no pediste cambiar tu dirección de correo electrónico, puedes ignorar este correo. Tu cuenta no cambiará."),
        "it": .init(
            subject: "Conferma il tuo nuovo indirizzo email per {app}",
            intro:
                "Abbiamo ricevuto una richiesta di cambiare l'indirizzo email del tuo account {app} in {email}. "
                + "Usa il link qui sotto per confermare il nuovo indirizzo; la modifica avrà effetto solo dopo la conferma.",
            button: "Conferma nuovo indirizzo",
            ignore: "Se non hai chiesto di cambiare il tuo indirizzo email, puoi ignorare questa email. Il tuo account non cambierà."),
        "pt-BR": .init(
            subject: "Confirme seu novo e-mail para {app}",
            intro:
                "Recebemos uma solicitação para alterar o endereço de e-mail da sua conta do {app} para {email}. "
                + "Use o link abaixo para confirmar o novo endereço; a alteração só vale depois da confirmação.",
            button: "Confirmar novo e-mail",
            ignore: "Se você não pediu para alterar seu endereço de e-mail, pode ignorar este e-mail. Sua conta não será alterada."),
        "tr": .init(
            subject: "{app} için yeni e-posta adresinizi onaylayın",
            intro:
                "{app} hesabınızın e-posta adresini {email} olarak değiştirme isteği aldık. "
                + "Yeni adresi onaylamak için aşağıdaki bağlantıyı kullanın; değişiklik ancak onayladığınızda geçerli olur.",
            button: "Yeni adresi onayla",
            ignore: "E-posta adresinizi değiştirmeyi siz istemediyseniz bu e-postayı yok sayabilirsiniz. Hesabınız değişmeyecek."),
        "ar": .init(
            subject: "تأكيد بريدك الإلكتروني الجديد في {app}",
            intro:
                "تلقّينا طلبًا لتغيير عنوان البريد الإلكتروني لحسابك في {app} إلى {email}. "
                + "استخدم الرابط أدناه لتأكيد العنوان الجديد، ولن يسري التغيير إلا بعد التأكيد.",
            button: "تأكيد العنوان الجديد",
            ignore: "إذا لم تطلب تغيير عنوان بريدك الإلكتروني، فيمكنك تجاهل هذه الرسالة. لن يتغيّر حسابك."),
        "ru": .init(
            subject: "Подтвердите новый адрес электронной почты для {app}",
            intro:
                "Мы получили запрос на изменение адреса электронной почты вашего аккаунта {app} на {email}. "
                + "Чтобы подтвердить новый адрес, воспользуйтесь ссылкой ниже; изменение вступит в силу только после подтверждения.",
            button: "Подтвердить новый адрес",
            ignore:
                "Если вы не запрашивали изменение адреса электронной почты, просто проигнорируйте это письмо. Ваш аккаунт не изменится."),
        "ja": .init(
            subject: "{app} の新しいメールアドレスの確認",
            intro:
                "{app} アカウントのメールアドレスを {email} に変更するリクエストを受け付けました。"
                + "下のリンクを開いて新しいメールアドレスを確認してください。確認が完了するまで変更は反映されません。",
            button: "新しいメールアドレスを確認",
            ignore: "メールアドレスの変更に心当たりがない場合は、このメールを無視してください。アカウントは変更されません。"),
        "zh-CN": .init(
            subject: "确认您在 {app} 的新电子邮件地址",
            intro: "我们收到了将您的 {app} 账号电子邮件地址更改为 {email} 的请求。请使用下面的链接确认新地址；确认后更改才会生效。",
            button: "确认新地址",
            ignore: "如果您没有请求更改电子邮件地址，请忽略此邮件。您的账号不会有任何变化。"),
        "zh-TW": .init(
            subject: "確認您在 {app} 的新電子郵件地址",
            intro: "我們收到將您的 {app} 帳戶電子郵件地址變更為 {email} 的要求。請使用下方連結確認新地址；確認後變更才會生效。",
            button: "確認新地址",
            ignore: "如果您沒有要求變更電子郵件地址，請忽略這封郵件。您的帳戶不會有任何變更。"),
    ]
}
