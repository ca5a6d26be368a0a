/// How the password form names a policy's rules, in one locale: the hint's lead-in, the lead-in of the list of missed
/// rules, and one phrase per rule (`{n}` is the length).
struct PasswordRuleStrings {
    var needs: String
    var missing: String
    var minLength: String
    var maxLength: String
    var lowercase: String
    var uppercase: String
    var numeric: String
    var nonAlphanumeric: String

    /// The phrase of `rule` in this locale.
    func phrase(_ rule: PasswordRequirement) -> String {
        switch rule {
        case .minLength(let n): Placeholders.fill(minLength, values: ["n": String(n)])
        case .maxLength(let n): Placeholders.fill(maxLength, values: ["n": String(n)])
        case .lowercase: lowercase
        case .uppercase: uppercase
        case .numeric: numeric
        case .nonAlphanumeric: nonAlphanumeric
        }
    }
}

extension ActionPageStrings {
    /// The rule phrases by the locales of ``builtIn``.
    static let passwordRules: [String: PasswordRuleStrings] = [
        "en": PasswordRuleStrings(
            needs: "Your password needs:", missing: "This password is missing:", minLength: "at least {n} characters",
            maxLength: "at most {n} characters", lowercase: "a lower-case letter", uppercase: "an upper-case letter", numeric: "a digit",
            nonAlphanumeric: "a symbol such as ! # % or ?"),
        "fr": PasswordRuleStrings(
            needs: "Votre mot de passe doit contenir :", missing: "Il manque à ce mot de passe :", minLength: "au moins {n} caractères",
            maxLength: "au plus {n} caractères", lowercase: "une lettre minuscule", uppercase: "une lettre majuscule", numeric: "un chiffre",
            nonAlphanumeric: "un symbole comme ! # % ou ?"),
        "de": PasswordRuleStrings(
            needs: "Ihr Passwort braucht:", missing: "Diesem Passwort fehlt:", minLength: "mindestens {n} Zeichen",
            maxLength: "höchstens {n} Zeichen", lowercase: "einen Kleinbuchstaben", uppercase: "einen Großbuchstaben", numeric: "eine Ziffer",
            nonAlphanumeric: "ein Sonderzeichen wie ! # % oder ?"),
        "es": PasswordRuleStrings(
            needs: "Tu contraseña necesita:", missing: "A esta contraseña le falta:", minLength: "al menos {n} caracteres",
            maxLength: "como máximo {n} caracteres", lowercase: "una letra minúscula", uppercase: "una letra mayúscula", numeric: "un número",
            nonAlphanumeric: "un símbolo como ! # % o ?"),
        "it": PasswordRuleStrings(
            needs: "La password deve avere:", missing: "A questa password manca:", minLength: "almeno {n} caratteri",
            maxLength: "al massimo {n} caratteri", lowercase: "una lettera minuscola", uppercase: "una lettera maiuscola", numeric: "una cifra",
            nonAlphanumeric: "un simbolo come ! # % o ?"),
        "pt-BR": PasswordRuleStrings(
            needs: "Sua senha precisa ter:", missing: "Falta nesta senha:", minLength: "pelo menos {n} caracteres",
            maxLength: "no máximo {n} caracteres", lowercase: "uma letra minúscula", uppercase: "uma letra maiúscula", numeric: "um número",
            nonAlphanumeric: "um símbolo como ! # % ou ?"),
        "tr": PasswordRuleStrings(
            needs: "Şifreniz şunları içermeli:", missing: "Bu şifrede eksik olanlar:", minLength: "en az {n} karakter",
            maxLength: "en fazla {n} karakter", lowercase: "bir küçük harf", uppercase: "bir büyük harf", numeric: "bir rakam",
            nonAlphanumeric: "! # % veya ? gibi bir simge"),
        "ar": PasswordRuleStrings(
            needs: "يجب أن تحتوي كلمة المرور على:", missing: "ينقص كلمة المرور هذه:", minLength: "{n} أحرف على الأقل",
            maxLength: "{n} حرفًا على الأكثر", lowercase: "حرف لاتيني صغير", uppercase: "حرف لاتيني كبير", numeric: "رقم",
            nonAlphanumeric: "رمز مثل ! # % أو ?"),
        "ru": PasswordRuleStrings(
            needs: "В пароле должно быть:", missing: "В этом пароле не хватает:", minLength: "не менее {n} символов",
            maxLength: "не более {n} символов", lowercase: "строчная буква", uppercase: "заглавная буква", numeric: "цифра",
            nonAlphanumeric: "символ, например ! # % или ?"),
        "ja": PasswordRuleStrings(
            needs: "パスワードの条件:", missing: "このパスワードに足りないもの:", minLength: "{n} 文字以上", maxLength: "{n} 文字以下",
            lowercase: "英小文字", uppercase: "英大文字", numeric: "数字", nonAlphanumeric: "! # % ? などの記号"),
        "zh-CN": PasswordRuleStrings(
            needs: "密码需要包含：", missing: "此密码缺少：", minLength: "至少 {n} 个字符", maxLength: "最多 {n} 个字符", lowercase: "一个小写字母",
            uppercase: "一个大写字母", numeric: "一个数字", nonAlphanumeric: "一个符号，例如 ! # % 或 ?"),
        "zh-TW": PasswordRuleStrings(
            needs: "密碼需要包含：", missing: "這個密碼缺少：", minLength: "至少 {n} 個字元", maxLength: "最多 {n} 個字元", lowercase: "一個小寫字母",
            uppercase: "一個大寫字母", numeric: "一個數字", nonAlphanumeric: "一個符號，例如 ! # % 或 ?"),
    ]
}
