import Hummingbird

/// The handlers of endpoints that only decode their body and hand it to a rule, made from the rule itself so the
/// router's table names the rule (`BodyHandlers.client(flows.password.signInWithPassword)`): the body is decoded as
/// the rule's first parameter, after the caller's check.
enum BodyHandlers {
    /// A handler, as the router takes it.
    typealias Handler<Answer> = @Sendable (Request, FlintRequestContext) async throws -> Answer

    /// A client endpoint (``FlintRequestContext/clientBody(_:as:)``) answered by `rule` from the body.
    static func client<Body: Decodable & Sendable, Answer>(_ rule: @escaping @Sendable (Body) async throws -> Answer) -> Handler<Answer> {
        { request, context in try await rule(try await context.clientBody(request, as: Body.self)) }
    }

    /// A client endpoint answered by `rule` from the body and the client's address (for the rule's limits).
    static func client<Body: Decodable & Sendable, Answer>(_ rule: @escaping @Sendable (Body, String?) async throws -> Answer) -> Handler<Answer> {
        { request, context in try await rule(try await context.clientBody(request, as: Body.self), context.clientIP) }
    }

    /// A client endpoint answered by `rule` from the body, the locales of the text it sends (``Request/answerLocales``)
    /// and the client's address.
    static func client<Body: Decodable & Sendable, Answer>(
        _ rule: @escaping @Sendable (Body, [String], String?) async throws -> Answer
    ) -> Handler<Answer> {
        { request, context in try await rule(try await context.clientBody(request, as: Body.self), request.answerLocales, context.clientIP) }
    }

    /// An operator-only endpoint of `projectID` (``FlintRequestContext/requireOperator(projectID:)``) answered by
    /// `rule` from the body.
    static func operatorOnly<Body: Decodable & Sendable, Answer>(
        projectID: String, _ rule: @escaping @Sendable (Body) async throws -> Answer
    ) -> Handler<Answer> {
        { request, context in
            try context.requireOperator(projectID: projectID)
            return try await rule(try await request.decode(as: Body.self, context: context))
        }
    }
}
