extension EmailTemplates {
    /// The words of the built-in emails, by locale. Placeholders: `{app}`, `{email}`; the layout adds `{link}`.
    /// Tone follows each language's usual product mail: `vous`, `Sie` and `вы`; `tú`, `tu` and `você`.
    static let builtInPhrases: [String: EmailPhrases] = [
        "en": EmailPhrases(
            greeting: "Hello,",
            copyLink: "If the button doesn't work, copy this link into your browser:",
            expiry: "This link expires after a short time and can be used only once.",
            signOff: "Thanks,\nThe {app} team",
            signIn: .init(
                subject: "Sign in to {app}",
                intro: "We received a request to sign in to {app} with {email}. Use the link below to sign in.",
                button: "Sign in",
                ignore: "If you didn't ask to sign in, you can ignore this email."),
            verifyEmail: .init(
                subject: "Verify your email for {app}",
                intro: "Use the link below to confirm that {email} is your email address for {app}.",
                button: "Verify email",
                ignore: "If you didn't make this request, you can ignore this email."),
            passwordReset: .init(
                subject: "Reset your password for {app}",
                intro:
                    "We received a request to reset the password for your {app} account ({email}). Use the link below to choose a new password.",
                button: "Reset password",
                ignore: "If you didn't ask to reset your password, you can ignore this email. Your password won't change.")),
        "fr": EmailPhrases(
            greeting: "Bonjour,",
            copyLink: "Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur\u{A0}:",
            expiry: "Ce lien expire après un court délai et ne peut être utilisé qu'une seule fois.",
            signOff: "Merci,\nL'équipe {app}",
            signIn: .init(
                subject: "Connectez-vous à {app}",
                intro:
                    "Nous avons reçu une demande de connexion à {app} avec l'adresse {email}. Utilisez le lien ci-dessous pour vous connecter.",
                button: "Se connecter",
                ignore: "Si vous n'avez pas demandé à vous connecter, vous pouvez ignorer cet e-mail."),
            verifyEmail: .init(
                subject: "Confirmez votre adresse e-mail pour {app}",
                intro: "Utilisez le lien ci-dessous pour confirmer que {email} est bien votre adresse e-mail pour {app}.",
                button: "Confirmer l'adresse e-mail",
                ignore: "Si vous n'êtes pas à l'origine de cette demande, vous pouvez ignorer cet e-mail."),
            passwordReset: .init(
                subject: "Réinitialisez votre mot de passe {app}",
                intro:
                    "Nous avons reçu une demande de réinitialisation du mot de passe de votre compte {app} ({email}). "
                    + "Utilisez le lien ci-dessous pour choisir un nouveau mot de passe.",
                button: "Réinitialiser le mot de passe",
                ignore:
                    "Si vous n'avez pas demandé à réinitialiser votre mot de passe, vous pouvez ignorer cet e-mail. "
                    + "Votre mot de passe ne sera pas modifié.")),
        "de": EmailPhrases(
            greeting: "Hallo,",
            copyLink: "Falls die Schaltfläche nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:",
            expiry: "Dieser Link ist nur kurze Zeit gültig und kann nur einmal verwendet werden.",
            signOff: "Viele Grüße\nIhr Team von {app}",
            signIn: .init(
                subject: "Bei {app} anmelden",
                intro:
                    "Wir haben eine Anfrage erhalten, sich mit {email} bei {app} anzumelden. Über den Link unten können Sie sich anmelden.",
                button: "Anmelden",
                ignore: "Falls Sie keine Anmeldung angefordert haben, können Sie diese E-Mail ignorieren."),
            verifyEmail: .init(
                subject: "E-Mail-Adresse für {app} bestätigen",
                intro: "Bitte bestätigen Sie über den Link unten, dass {email} Ihre E-Mail-Adresse für {app} ist.",
                button: "E-Mail-Adresse bestätigen",
                ignore: "Falls Sie diese Anfrage nicht gestellt haben, können Sie diese E-Mail ignorieren."),
            passwordReset: .init(
                subject: "Passwort für {app} zurücksetzen",
                intro:
                    "Wir haben eine Anfrage erhalten, das Passwort für Ihr Konto bei {app} ({email}) zurückzusetzen. "
                    + "Über den Link unten können Sie ein neues Passwort festlegen.",
                button: "Passwort zurücksetzen",
                ignore:
                    "Falls Sie das Zurücksetzen Ihres Passworts nicht angefordert haben, können Sie diese E-Mail ignorieren. "
                    + "Ihr Passwort bleibt unverändert.")),
        "es": EmailPhrases(
            greeting: "Hola:",
            copyLink: "Si el botón no funciona, copia este enlace en tu navegador:",
            expiry: "Este enlace caduca en poco tiempo y solo se puede usar una vez.",
            signOff: "Gracias,\nEl equipo de {app}",
            signIn: .init(
                subject: "Inicia sesión en {app}",
                intro: "Hemos recibido una solicitud para iniciar sesión en {app} con {email}. Usa el enlace de abajo para iniciar sesión.",
                button: "Iniciar sesión",
                ignore: "Si no has solicitado iniciar sesión, puedes ignorar este correo."),
            verifyEmail: .init(
                subject: "Verifica tu correo electrónico para {app}",
                intro: "Usa el enlace de abajo para confirmar que {email} es tu dirección de correo electrónico en {app}.",
                button: "Verificar correo",
                ignore: "Si no has hecho esta solicitud, puedes ignorar este correo."),
            passwordReset: .init(
                subject: "Restablece tu contraseña de {app}",
                intro:
                    "Hemos recibido una solicitud para restablecer la contraseña de tu cuenta de {app} ({email}). "
                    + "Usa el enlace de abajo para elegir una contraseña nueva.",
                button: "Restablecer contraseña",
                ignore: "Si no has solicitado restablecer tu contraseña, puedes ignorar este correo. Tu contraseña no cambiará.")),
        "it": EmailPhrases(
            greeting: "Ciao,",
            copyLink: "Se il pulsante non funziona, copia questo link nel browser:",
            expiry: "Questo link scade dopo poco tempo e può essere usato una sola volta.",
            signOff: "Grazie,\nIl team di {app}",
            signIn: .init(
                subject: "Accedi a {app}",
                intro: "Abbiamo ricevuto una richiesta di accesso a {app} con {email}. Usa il link qui sotto per accedere.",
                button: "Accedi",
                ignore: "Se non hai richiesto l'accesso, puoi ignorare questa email."),
            verifyEmail: .init(
                subject: "Verifica il tuo indirizzo email per {app}",
                intro: "Usa il link qui sotto per confermare che {email} è il tuo indirizzo email per {app}.",
                button: "Verifica email",
                ignore: "Se non hai fatto tu questa richiesta, puoi ignorare questa email."),
            passwordReset: .init(
                subject: "Reimposta la password di {app}",
                intro:
                    "Abbiamo ricevuto una richiesta di reimpostazione della password del tuo account {app} ({email}). "
                    + "Usa il link qui sotto per scegliere una nuova password.",
                button: "Reimposta password",
                ignore: "Se non hai richiesto di reimpostare la password, puoi ignorare questa email. La tua password non verrà modificata.")),
        "pt-BR": EmailPhrases(
            greeting: "Olá,",
            copyLink: "Se o botão não funcionar, copie e cole este link no navegador:",
            expiry: "Este link expira em pouco tempo e só pode ser usado uma vez.",
            signOff: "Obrigado,\nEquipe {app}",
            signIn: .init(
                subject: "Faça login em {app}",
                intro: "Recebemos uma solicitação para fazer login em {app} com {email}. Use o link abaixo para entrar.",
                button: "Fazer login",
                ignore: "Se você não pediu para fazer login, pode ignorar este e-mail."),
            verifyEmail: .init(
                subject: "Verifique seu e-mail para {app}",
                intro: "Use o link abaixo para confirmar que {email} é o seu endereço de e-mail em {app}.",
                button: "Verificar e-mail",
                ignore: "Se você não fez esta solicitação, pode ignorar este e-mail."),
            passwordReset: .init(
                subject: "Redefina sua senha para {app}",
                intro:
                    "Recebemos uma solicitação para redefinir a senha da sua conta em {app} ({email}). "
                    + "Use o link abaixo para escolher uma nova senha.",
                button: "Redefinir senha",
                ignore: "Se você não pediu para redefinir sua senha, pode ignorar este e-mail. Sua senha não será alterada.")),
        "tr": EmailPhrases(
            greeting: "Merhaba,",
            copyLink: "Düğme çalışmazsa bu bağlantıyı kopyalayıp tarayıcınıza yapıştırın:",
            expiry: "Bu bağlantı kısa bir süre sonra geçerliliğini yitirir ve yalnızca bir kez kullanılabilir.",
            signOff: "Teşekkürler,\n{app} Ekibi",
            signIn: .init(
                subject: "{app} için oturum açma bağlantınız",
                intro: "{email} adresiyle {app} için oturum açma isteği aldık. Oturum açmak için aşağıdaki bağlantıyı kullanın.",
                button: "Oturum aç",
                ignore: "Oturum açma isteğinde bulunmadıysanız bu e-postayı yok sayabilirsiniz."),
            verifyEmail: .init(
                subject: "{app} için e-posta adresinizi doğrulayın",
                intro: "{app} için {email} adresinin size ait olduğunu doğrulamak üzere aşağıdaki bağlantıyı kullanın.",
                button: "E-postayı doğrula",
                ignore: "Bu isteği siz yapmadıysanız bu e-postayı yok sayabilirsiniz."),
            passwordReset: .init(
                subject: "{app} için şifrenizi sıfırlayın",
                intro:
                    "{app} hesabınızın ({email}) şifresini sıfırlama isteği aldık. Yeni bir şifre belirlemek için aşağıdaki bağlantıyı kullanın.",
                button: "Şifreyi sıfırla",
                ignore: "Şifre sıfırlama isteğinde bulunmadıysanız bu e-postayı yok sayabilirsiniz. Şifreniz değişmeyecek.")),
        "ar": EmailPhrases(
            greeting: "مرحبًا،",
            copyLink: "إذا لم يعمل الزر، فانسخ هذا الرابط والصقه في المتصفح:",
            expiry: "تنتهي صلاحية هذا الرابط بعد وقت قصير، ولا يمكن استخدامه إلا مرة واحدة.",
            signOff: "شكرًا لك،\nفريق {app}",
            signIn: .init(
                subject: "تسجيل الدخول إلى {app}",
                intro: "تلقّينا طلبًا لتسجيل الدخول إلى {app} باستخدام {email}. استخدم الرابط أدناه لتسجيل الدخول.",
                button: "تسجيل الدخول",
                ignore: "إذا لم تطلب تسجيل الدخول، فيمكنك تجاهل هذه الرسالة."),
            verifyEmail: .init(
                subject: "تأكيد بريدك الإلكتروني في {app}",
                intro: "استخدم الرابط أدناه لتأكيد أن {email} هو عنوان بريدك الإلكتروني في {app}.",
                button: "تأكيد البريد الإلكتروني",
                ignore: "إذا لم تقدّم هذا الطلب، فيمكنك تجاهل هذه الرسالة."),
            passwordReset: .init(
                subject: "إعادة تعيين كلمة المرور في {app}",
                intro: "تلقّينا طلبًا لإعادة تعيين كلمة المرور لحسابك في {app} ({email}). استخدم الرابط أدناه لاختيار كلمة مرور جديدة.",
                button: "إعادة تعيين كلمة المرور",
                ignore: "إذا لم تطلب إعادة تعيين كلمة المرور، فيمكنك تجاهل هذه الرسالة، ولن تتغيّر كلمة المرور.")),
        "ru": EmailPhrases(
            greeting: "Здравствуйте!",
            copyLink: "Если кнопка не работает, скопируйте эту ссылку в адресную строку браузера:",
            expiry: "Ссылка действует недолго и может быть использована только один раз.",
            signOff: "С уважением,\nкоманда {app}",
            signIn: .init(
                subject: "Вход в {app}",
                intro: "Мы получили запрос на вход в {app} с адресом {email}. Чтобы войти, воспользуйтесь ссылкой ниже.",
                button: "Войти",
                ignore: "Если вы не запрашивали вход, просто проигнорируйте это письмо."),
            verifyEmail: .init(
                subject: "Подтвердите адрес электронной почты для {app}",
                intro: "Чтобы подтвердить, что {email} — ваш адрес электронной почты в {app}, воспользуйтесь ссылкой ниже.",
                button: "Подтвердить адрес",
                ignore: "Если вы не отправляли этот запрос, просто проигнорируйте это письмо."),
            passwordReset: .init(
                subject: "Сброс пароля для {app}",
                intro:
                    "Мы получили запрос на сброс пароля для вашего аккаунта {app} ({email}). Чтобы задать новый пароль, воспользуйтесь ссылкой ниже.",
                button: "Сбросить пароль",
                ignore: "Если вы не запрашивали сброс пароля, просто проигнорируйте это письмо. Ваш пароль не изменится.")),
        "ja": EmailPhrases(
            greeting: "",
            copyLink: "ボタンが機能しない場合は、次のリンクをコピーしてブラウザに貼り付けてください。",
            expiry: "このリンクの有効期間は短く、使用できるのは 1 回のみです。",
            signOff: "{app} チーム",
            signIn: .init(
                subject: "{app} へのログイン",
                intro: "{email} で {app} にログインするリクエストを受け付けました。下のリンクからログインしてください。",
                button: "ログイン",
                ignore: "ログインをリクエストしていない場合は、このメールを無視してください。"),
            verifyEmail: .init(
                subject: "{app} のメールアドレスの確認",
                intro: "下のリンクを開いて、{email} が {app} で使用するメールアドレスであることを確認してください。",
                button: "メールアドレスを確認",
                ignore: "このリクエストに心当たりがない場合は、このメールを無視してください。"),
            passwordReset: .init(
                subject: "{app} のパスワードの再設定",
                intro: "{app} アカウント（{email}）のパスワード再設定のリクエストを受け付けました。下のリンクから新しいパスワードを設定してください。",
                button: "パスワードを再設定",
                ignore: "パスワードの再設定をリクエストしていない場合は、このメールを無視してください。パスワードは変更されません。")),
        "zh-CN": EmailPhrases(
            greeting: "您好：",
            copyLink: "如果按钮无法使用，请将以下链接复制到浏览器中打开：",
            expiry: "此链接将在短时间内失效，且只能使用一次。",
            signOff: "谢谢！\n{app} 团队",
            signIn: .init(
                subject: "登录 {app}",
                intro: "我们收到了使用 {email} 登录 {app} 的请求。请使用下面的链接登录。",
                button: "登录",
                ignore: "如果您没有请求登录，请忽略此邮件。"),
            verifyEmail: .init(
                subject: "验证您在 {app} 的电子邮件地址",
                intro: "请使用下面的链接确认 {email} 是您在 {app} 使用的电子邮件地址。",
                button: "验证电子邮件地址",
                ignore: "如果您没有发出此请求，请忽略此邮件。"),
            passwordReset: .init(
                subject: "重置您的 {app} 密码",
                intro: "我们收到了重置您的 {app} 账号（{email}）密码的请求。请使用下面的链接设置新密码。",
                button: "重置密码",
                ignore: "如果您没有请求重置密码，请忽略此邮件，您的密码不会更改。")),
        "zh-TW": EmailPhrases(
            greeting: "您好：",
            copyLink: "如果按鈕無法使用，請將下列連結複製到瀏覽器中開啟：",
            expiry: "此連結將在短時間內失效，且只能使用一次。",
            signOff: "謝謝！\n{app} 團隊",
            signIn: .init(
                subject: "登入 {app}",
                intro: "我們收到使用 {email} 登入 {app} 的要求。請使用下方連結登入。",
                button: "登入",
                ignore: "如果您沒有要求登入，請忽略這封郵件。"),
            verifyEmail: .init(
                subject: "驗證您在 {app} 的電子郵件地址",
                intro: "請使用下方連結確認 {email} 是您在 {app} 使用的電子郵件地址。",
                button: "驗證電子郵件地址",
                ignore: "如果您沒有提出這項要求，請忽略這封郵件。"),
            passwordReset: .init(
                subject: "重設您的 {app} 密碼",
                intro: "我們收到重設您 {app} 帳戶（{email}）密碼的要求。請使用下方連結設定新密碼。",
                button: "重設密碼",
                ignore: "如果您沒有要求重設密碼，請忽略這封郵件，您的密碼不會變更。")),
    ]
}
