import Foundation
import Testing

@testable import FlintAuth

@Suite("GoogleService-Info.plist")
struct ConfigurationTests {
    static func writePlist(_ values: [String: Any]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flint-plist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("GoogleService-Info.plist").path
        let data = try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    static var sample: [String: Any] {
        [
            "API_KEY": "AIzaSyExample", "GOOGLE_APP_ID": "1:1234567890:ios:abcdef", "PROJECT_ID": "demo-flint",
            "BUNDLE_ID": "com.example.app", "CLIENT_ID": "1234567890-abc.apps.googleusercontent.com", "GCM_SENDER_ID": "1234567890",
            "IS_SIGNIN_ENABLED": true, "FLINT_BASE_URL": "https://auth.example.com",
        ]
    }

    @Test("every FirebaseOptions key and FLINT_BASE_URL are read")
    func readsAllKeys() throws {
        let path = try Self.writePlist(Self.sample)
        let options = try #require(FlintOptions(contentsOfFile: path))
        #expect(options.apiKey == "AIzaSyExample")
        #expect(options.projectID == "demo-flint")
        #expect(options.googleAppID == "1:1234567890:ios:abcdef")
        #expect(options.bundleID == "com.example.app")
        #expect(options.clientID == "1234567890-abc.apps.googleusercontent.com")
        #expect(options.gcmSenderID == "1234567890")
        #expect(options.baseURL?.absoluteString == "https://auth.example.com")
    }

    @Test("without FLINT_BASE_URL the options address Google's hosts, as FirebaseAuth")
    func noBaseURL() throws {
        var values = Self.sample
        values["FLINT_BASE_URL"] = nil
        let options = try FlintOptions.load(contentsOfFile: try Self.writePlist(values))
        #expect(options.baseURL == nil)
        #expect(Backend(options: options).url(host: "securetoken.googleapis.com", path: "/v1/token")?.host == "securetoken.googleapis.com")
    }

    @Test("a missing API_KEY is invalidAPIKey; a missing PROJECT_ID, a bad base URL, an unreadable file are internalError")
    func refusals() throws {
        var noKey = Self.sample
        noKey["API_KEY"] = nil
        #expect(FlintOptions(contentsOfFile: try Self.writePlist(noKey)) == nil)
        do {
            _ = try FlintOptions.load(contentsOfFile: try Self.writePlist(noKey))
            Issue.record("a plist without API_KEY was accepted")
        } catch {
            #expect(authCode(error) == AuthErrorCode.invalidAPIKey.rawValue)
            #expect(error.localizedDescription.contains("API_KEY"))
        }
        var noProject = Self.sample
        noProject["PROJECT_ID"] = nil
        var badURL = Self.sample
        badURL["FLINT_BASE_URL"] = "ftp://auth.example.com"
        for path in [try Self.writePlist(noProject), try Self.writePlist(badURL), "/nonexistent/GoogleService-Info.plist"] {
            do {
                _ = try FlintOptions.load(contentsOfFile: path)
                Issue.record("\(path) was accepted")
            } catch {
                #expect(authCode(error) == AuthErrorCode.internalError.rawValue)
                #expect(error.localizedDescription.contains(path) || error.localizedDescription.contains("FLINT_BASE_URL"))
            }
        }
    }

    @Test("a file that is not a plist is refused with its path in the message")
    func notAPlist() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flint-notplist-\(UUID().uuidString).plist").path
        try Data("this is not a property list".utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try FlintOptions.load(contentsOfFile: path)
            Issue.record("a text file was read as a plist")
        } catch {
            #expect(authCode(error) == AuthErrorCode.internalError.rawValue)
            #expect(error.localizedDescription.contains(path))
        }
    }

    @Test("FLINT_GOOGLE_SERVICE_INFO comes first among the places configure() searches")
    func searchOrder() throws {
        let candidates = FlintOptions.defaultPlistCandidates(environment: ["FLINT_GOOGLE_SERVICE_INFO": "/etc/app/GoogleService-Info.plist"])
        #expect(candidates.first == "/etc/app/GoogleService-Info.plist")
        #expect(candidates.last == FileManager.default.currentDirectoryPath + "/GoogleService-Info.plist")
        #expect(FlintOptions.defaultPlistCandidates(environment: [:]).first != "/etc/app/GoogleService-Info.plist")
    }

    @Test("loadDefault reads the file FLINT_GOOGLE_SERVICE_INFO names, and names it when it is missing")
    func loadDefaultFromEnvironment() throws {
        let path = try Self.writePlist(Self.sample)
        // The variable is passed, not set with setenv: changing the process's environment while another test starts a
        // child process (Foundation's Process copies environ) crashed the whole test run.
        let environment = [FlintOptions.plistPathVariable: path]
        #expect(try FlintOptions.loadDefault(environment: environment).apiKey == "AIzaSyExample")
        #expect(try FlintOptions.loadDefault(environment: environment).googleAppID == "1:1234567890:ios:abcdef")
        do {
            _ = try FlintOptions.loadDefault(environment: [FlintOptions.plistPathVariable: path + ".missing"])
            Issue.record("a missing file was read")
        } catch {
            #expect(error.localizedDescription.contains(path + ".missing"))
        }
    }
}
