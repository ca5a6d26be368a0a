import CXMLSec

/// One enveloped XML signature over the element that contains it, checked the strict way SAML needs: exclusive
/// canonicalization, RSA with SHA-2, one reference whose ID is the parent element's own (registered, unique), then
/// verified by xmlsec with a configured certificate's key only — the signature's KeyInfo is never read.
struct EnvelopedSignature {
    /// The `ds:Signature` element.
    let signature: XMLElement
    /// The element it sits in and must sign: a Response or an Assertion.
    let signed: XMLElement

    private static let signatureMethods = [SAMLNames.rsaSHA256, SAMLNames.rsaSHA384, SAMLNames.rsaSHA512]
    private static let digestMethods = [SAMLNames.sha256, SAMLNames.sha384, SAMLNames.sha512]

    /// Checks the signature's structure and algorithms, then verifies it with the first configured key that does.
    /// - Parameters:
    ///   - document: the document both elements belong to, IDs registered.
    ///   - keys: the configured certificates' public keys, PEM.
    /// - Throws: ``SAMLError/unsupportedAlgorithm(_:)``, ``SAMLError/signatureReference(_:)``,
    ///   ``SAMLError/malformedMessage(_:)``, ``SAMLError/invalidCertificate(_:)``, ``SAMLError/signatureInvalid``.
    func verify(in document: XMLDocument, certificates: [String]) throws(SAMLError) {
        try checkStructure(in: document)
        for certificate in certificates {
            if try verifies(with: certificate) { return }
        }
        throw .signatureInvalid
    }

    private func checkStructure(in document: XMLDocument) throws(SAMLError) {
        let ds = SAMLNames.signatureNamespace
        let signedInfo = try signature.requiredChild("SignedInfo", in: ds)
        let canonicalization = try signedInfo.requiredChild("CanonicalizationMethod", in: ds).attribute("Algorithm")
        guard canonicalization == SAMLNames.exclusiveC14N else {
            throw .unsupportedAlgorithm("canonicalization \(canonicalization ?? "none"); only exclusive C14N is accepted")
        }
        let method = try signedInfo.requiredChild("SignatureMethod", in: ds).attribute("Algorithm") ?? "none"
        if method == SAMLNames.rsaSHA1 { throw .unsupportedAlgorithm("RSA-SHA1: SHA-1 signatures are refused; use RSA-SHA256") }
        guard Self.signatureMethods.contains(method) else {
            throw .unsupportedAlgorithm("signature method \(method); RSA-SHA256, RSA-SHA384 or RSA-SHA512 only")
        }
        let references = signedInfo.children("Reference", in: ds)
        guard references.count == 1, let reference = references.first else {
            throw .signatureReference("\(references.count) references; exactly one is accepted")
        }
        guard let id = signed.attribute("ID"), !id.isEmpty else {
            throw .signatureReference("the signed \(signed.localName) has no ID")
        }
        guard reference.attribute("URI") == "#" + id else {
            throw .signatureReference("the reference \(reference.attribute("URI") ?? "none") does not name its \(signed.localName) #\(id)")
        }
        guard let target = document.element(withID: id), target.node == signed.node else {
            throw .signatureReference("the ID \(id) does not resolve to the signed \(signed.localName)")
        }
        let transforms = try reference.child("Transforms", in: ds)?.children("Transform", in: ds) ?? []
        let algorithms = transforms.map { $0.attribute("Algorithm") ?? "none" }
        for algorithm in algorithms where algorithm != SAMLNames.envelopedSignature && algorithm != SAMLNames.exclusiveC14N {
            throw .unsupportedAlgorithm("transform \(algorithm); only enveloped-signature and exclusive C14N are accepted")
        }
        guard algorithms.count == 2, Set(algorithms).count == 2 else {
            throw .unsupportedAlgorithm("transforms \(algorithms); exactly enveloped-signature and exclusive C14N are required")
        }
        let digest = try reference.requiredChild("DigestMethod", in: ds).attribute("Algorithm") ?? "none"
        if digest == SAMLNames.sha1 { throw .unsupportedAlgorithm("SHA-1 digests are refused; use SHA-256") }
        guard Self.digestMethods.contains(digest) else {
            throw .unsupportedAlgorithm("digest method \(digest); SHA-256, SHA-384 or SHA-512 only")
        }
    }

    /// xmlsec's verification with this certificate's key as the only key, and only the accepted algorithms enabled.
    private func verifies(with certificate: String) throws(SAMLError) -> Bool {
        let pem = Array(certificate.utf8)
        let key = pem.withUnsafeBufferPointer { flint_xmlsec_key_from_certificate_pem($0.baseAddress, $0.count) }
        guard let key else { throw .invalidCertificate("not a PEM certificate") }
        guard let context = xmlSecDSigCtxCreate(nil) else {
            xmlSecKeyDestroy(key)
            throw .libraryUnavailable(-5)
        }
        defer { xmlSecDSigCtxDestroy(context) }
        // The context owns the key from here on (xmlSecDSigCtxDestroy frees it). With signKey set and no keys
        // manager, xmlsec never reads KeyInfo.
        context.pointee.signKey = key
        context.pointee.flags = UInt32(XMLSEC_DSIG_FLAGS_IGNORE_MANIFESTS)
        context.pointee.enabledReferenceUris = xmlSecTransformUriType(xmlSecTransformUriTypeSameDocument)
        context.pointee.keyInfoReadCtx.retrievalMethodCtx.enabledUris = xmlSecTransformUriType(xmlSecTransformUriTypeNone)
        let referenceTransforms = [
            xmlSecTransformEnvelopedGetKlass(), xmlSecTransformExclC14NGetKlass(), xmlSecOpenSSLTransformSha256GetKlass(),
            xmlSecOpenSSLTransformSha384GetKlass(), xmlSecOpenSSLTransformSha512GetKlass(),
        ]
        let signatureTransforms = [
            xmlSecTransformExclC14NGetKlass(), xmlSecOpenSSLTransformRsaSha256GetKlass(), xmlSecOpenSSLTransformRsaSha384GetKlass(),
            xmlSecOpenSSLTransformRsaSha512GetKlass(),
        ]
        for transform in referenceTransforms where xmlSecDSigCtxEnableReferenceTransform(context, transform) < 0 {
            throw .libraryUnavailable(-6)
        }
        for transform in signatureTransforms where xmlSecDSigCtxEnableSignatureTransform(context, transform) < 0 {
            throw .libraryUnavailable(-6)
        }
        guard xmlSecDSigCtxVerify(context, signature.node) == 0 else { return false }
        return context.pointee.status == xmlSecDSigStatusSucceeded
    }
}
