/// The phone sign-in endpoints.
struct PhoneRoutes {
    let services: AuthServices
}
