/// The namespaces and URIs of SAML 2.0 and XML-DSig that FlintSAML reads or writes.
enum SAMLNames {
    static let protocolNamespace = "urn:oasis:names:tc:SAML:2.0:protocol"
    static let assertionNamespace = "urn:oasis:names:tc:SAML:2.0:assertion"
    static let signatureNamespace = "http://www.w3.org/2000/09/xmldsig#"
    static let success = "urn:oasis:names:tc:SAML:2.0:status:Success"
    static let bearer = "urn:oasis:names:tc:SAML:2.0:cm:bearer"
    static let postBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"
    static let unspecifiedNameIDFormat = "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"

    static let exclusiveC14N = "http://www.w3.org/2001/10/xml-exc-c14n#"
    static let envelopedSignature = "http://www.w3.org/2000/09/xmldsig#enveloped-signature"
    static let rsaSHA1 = "http://www.w3.org/2000/09/xmldsig#rsa-sha1"
    static let rsaSHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
    static let rsaSHA384 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384"
    static let rsaSHA512 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512"
    static let sha1 = "http://www.w3.org/2000/09/xmldsig#sha1"
    static let sha256 = "http://www.w3.org/2001/04/xmlenc#sha256"
    static let sha384 = "http://www.w3.org/2001/04/xmldsig-more#sha384"
    static let sha512 = "http://www.w3.org/2001/04/xmlenc#sha512"
}
