import Foundation
import Testing

@testable import FlintCore

@Suite("SAML: an IdP certificate is checked as a certificate, whatever its key size")
struct SAMLCertificateCheckTests {
    /// A self-signed certificate with a 1024-bit RSA key (made for this test with `openssl req -x509 -newkey rsa:1024`).
    static let rsa1024 = """
        -----BEGIN CERTIFICATE-----
        MIICGDCCAYGgAwIBAgIUSI8VFds9haxrWMqk8hWqp9YqyUYwDQYJKoZIhvcNAQEL
        BQAwHjEcMBoGA1UEAwwTZmxpbnQtdGVzdC1pZHAtMTAyNDAeFw0yNjExMjkxNDI4
        NTJaFw0zNjExMjYxNDI4NTJaMB4xHDAaBgNVBAMME2ZsaW50LXRlc3QtaWRwLTEw
        MjQwgZ8wDQYJKoZIhvcNAQEBBQADgY0AMIGJAoGBANqI/T6LuJ/W7HQUgj+4BtdR
        C6SKcPdmguy18E70ds9mSMPgMMrm5EHebQBNY/q3EN93DukGeFRdRJFyV+8OlCsP
        P+Qyi09lC0vo2FE0T0jBeQalpQBGzYUtaVrbAmhn/we8acdzfxAX8UxAtycom4oU
        DAo1vt/dxzQtqbY1S8qxAgMBAAGjUzBRMB0GA1UdDgQWBBQmbFi9ToOykkRLqd13
        hQ8kAmJsjzAfBgNVHSMEGDAWgBQmbFi9ToOykkRLqd13hQ8kAmJsjzAPBgNVHRMB
        Af8EBTADAQH/MA0GCSqGSIb3DQEBCwUAA4GBAAficJYT/UcMun3VRt7Hfl6HpctI
        0NTk5f+L7IIalDUhnr9MaPVo4uwFPgaPACmDSI8Vg0AOA5/jMhcEl4l5PKhyvcq8
        Xe+f8ecREmhPkp7jy+Gu8LamfD7d6USRQBBrQ60Twqrf19EAc6TbcT9URyIa9PX7
        H7cxwqQsTnQi/Yp0
        -----END CERTIFICATE-----
        """

    @Test("a 1024-bit RSA certificate is taken, as Identity Platform takes it (firebase-admin's integration tests use one)")
    func smallKey() {
        #expect(ProjectConfig.isCertificate(Self.rsa1024))
    }

    @Test("anything else in a CERTIFICATE block, another block, or a certificate cut short is refused")
    func refusals() {
        let lines = Self.rsa1024.split(separator: "\n")
        let cut = ([lines[0]] + lines[1..<(lines.count - 3)] + [lines[lines.count - 1]]).joined(separator: "\n")
        #expect(!ProjectConfig.isCertificate(cut))
        #expect(!ProjectConfig.isCertificate("-----BEGIN CERTIFICATE-----\nbm9wZQ==\n-----END CERTIFICATE-----"))
        #expect(!ProjectConfig.isCertificate(Self.rsa1024.replacingOccurrences(of: "CERTIFICATE", with: "PUBLIC KEY")))
        #expect(!ProjectConfig.isCertificate(""))
    }
}
