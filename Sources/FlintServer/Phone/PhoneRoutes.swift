/// The phone sign-in endpoints.
struct PhoneRoutes {
    let codes: PhoneCodes
    let signIn: PhoneSignIn
}
