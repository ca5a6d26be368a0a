import FlintCore
import HTTPTypes
import Hummingbird
import NIOCore

/// The association files that let emailed links open the app directly, with no Dynamic Links and no Google
/// domain: `apple-app-site-association` (Universal Links for the configured team and bundle IDs, covering the
/// action page; `webcredentials`, so the same apps may use the domain's passkeys) and `assetlinks.json` (Android App Links).
struct AppLinkRoutes {
    let config: ConfigCache

    func appleAppSiteAssociation(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let appIDs = config.current.appleAppIDs
        let details: [JSONValue] =
            appIDs.isEmpty
            ? []
            : [
                [
                    "appIDs": .array(appIDs.map(JSONValue.string)),
                    "components": [["/": .string("\(ActionRoutes.path)*"), "comment": "Flint email action links"]],
                    // iOS 12 and older read `appID` + `paths`.
                    "appID": .string(appIDs[0]), "paths": [.string("\(ActionRoutes.path)*")],
                ]
            ]
        // Passkeys: the apps may use credentials of this domain (Associated Domains' `webcredentials:`).
        let document: JSONValue = [
            "applinks": ["apps": [], "details": .array(details)], "webcredentials": ["apps": .array(appIDs.map(JSONValue.string))],
        ]
        return Self.json(document)
    }

    func assetLinks(_ request: Request, context: FlintRequestContext) async throws -> Response {
        let statements: [JSONValue] = config.current.androidApps.map { app in
            [
                "relation": ["delegate_permission/common.handle_all_urls"],
                "target": [
                    "namespace": "android_app", "package_name": .string(app.packageName),
                    "sha256_cert_fingerprints": .array(app.fingerprints.map { .string($0.uppercased()) }),
                ],
            ]
        }
        return Self.json(.array(statements))
    }

    private static func json(_ value: JSONValue) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "public, max-age=300"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: value.serialized())))
    }
}
