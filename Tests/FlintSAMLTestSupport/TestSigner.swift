package import CXMLSec
import Foundation

@testable import FlintSAML

/// Signs SAML documents at test time with libxmlsec itself: enveloped signatures placed after the element's Issuer,
/// with the algorithms a test picks (including ones the verifier refuses).
package enum TestSigner {
    package struct Options {
        package var canonicalization: xmlSecTransformId = xmlSecTransformExclC14NGetKlass()
        package var method: xmlSecTransformId = xmlSecOpenSSLTransformRsaSha256GetKlass()
        package var digest: xmlSecTransformId = xmlSecOpenSSLTransformSha256GetKlass()
        package var transforms: [xmlSecTransformId] = [xmlSecTransformEnvelopedGetKlass(), xmlSecTransformExclC14NGetKlass()]
        /// The certificate written into KeyInfo/X509Data (and loaded with the key), if any.
        package var keyInfoCertificate: String?
        /// Where the Signature goes, by ID; the signed element's own by default.
        package var placeIn: String?

        package init(
            canonicalization: xmlSecTransformId = xmlSecTransformExclC14NGetKlass(),
            method: xmlSecTransformId = xmlSecOpenSSLTransformRsaSha256GetKlass(),
            digest: xmlSecTransformId = xmlSecOpenSSLTransformSha256GetKlass(),
            transforms: [xmlSecTransformId] = [xmlSecTransformEnvelopedGetKlass(), xmlSecTransformExclC14NGetKlass()],
            keyInfoCertificate: String? = nil, placeIn: String? = nil
        ) {
            (self.canonicalization, self.method, self.digest, self.transforms) = (canonicalization, method, digest, transforms)
            (self.keyInfoCertificate, self.placeIn) = (keyInfoCertificate, placeIn)
        }
    }

    package struct Failure: Error { package let step: String }

    /// Signs the elements with these IDs in order (sign an assertion before the response around it), with `key`.
    package static func sign(_ xml: String, ids: [String], key: TestKey, options: Options = Options()) throws -> String {
        // The libraries' one initialization, FlintSAML's: initializing xmlsec again while another test verifies (tests
        // run in parallel) re-registers its transforms under that test's feet, which crashed the process once.
        try XMLSecLibrary.ensureInitialized()
        var sawDoctype: Int32 = 0
        let bytes = Array(xml.utf8)
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { flint_xml_parse_without_dtd($0.baseAddress, Int32($0.count), &sawDoctype) }
        }
        guard let document = parsed else { throw Failure(step: "parse") }
        defer { xmlFreeDoc(document) }
        var elements: [String: xmlNodePtr] = [:]
        func register(_ first: xmlNodePtr?) {
            var node = first
            while let current = node {
                if current.pointee.type == XML_ELEMENT_NODE {
                    if let attribute = xmlHasNsProp(current, "ID", nil), let value = xmlGetNoNsProp(current, "ID") {
                        let id = String(cString: value)
                        flint_xml_free(value)
                        if elements[id] == nil {
                            elements[id] = current
                            xmlAddID(nil, document, id, attribute)
                        }
                    }
                    register(current.pointee.children)
                }
                node = current.pointee.next
            }
        }
        register(xmlDocGetRootElement(document))
        for id in ids {
            guard elements[id] != nil, let parent = elements[options.placeIn ?? id] else { throw Failure(step: "find \(id)") }
            guard let signature = xmlSecTmplSignatureCreate(document, options.canonicalization, options.method, nil),
                let reference = xmlSecTmplSignatureAddReference(signature, options.digest, nil, "#\(id)", nil)
            else { throw Failure(step: "template") }
            for transform in options.transforms where xmlSecTmplReferenceAddTransform(reference, transform) == nil {
                throw Failure(step: "transform")
            }
            if options.keyInfoCertificate != nil {
                guard let keyInfo = xmlSecTmplSignatureEnsureKeyInfo(signature, nil), xmlSecTmplKeyInfoAddX509Data(keyInfo) != nil else {
                    throw Failure(step: "keyinfo")
                }
            }
            insert(signature, into: parent)
            guard let context = xmlSecDSigCtxCreate(nil) else { throw Failure(step: "context") }
            defer { xmlSecDSigCtxDestroy(context) }
            let pem = Array(key.privateKeyPEM.utf8)
            context.pointee.signKey = pem.withUnsafeBufferPointer { flint_xmlsec_key_from_private_key_pem($0.baseAddress, $0.count) }
            if let certificate = options.keyInfoCertificate {
                let certificateBytes = Array(certificate.utf8)
                let loaded = certificateBytes.withUnsafeBufferPointer {
                    xmlSecOpenSSLAppKeyCertLoadMemory(context.pointee.signKey, $0.baseAddress, numericCast($0.count), xmlSecKeyDataFormatCertPem)
                }
                guard loaded == 0 else { throw Failure(step: "certificate") }
            }
            guard context.pointee.signKey != nil, xmlSecDSigCtxSign(context, signature) == 0 else { throw Failure(step: "sign \(id)") }
        }
        var output: UnsafeMutablePointer<xmlChar>?
        var length: Int32 = 0
        xmlDocDumpMemoryEnc(document, &output, &length, "UTF-8")
        guard let output else { throw Failure(step: "dump") }
        defer { flint_xml_free(output) }
        return String(decoding: UnsafeBufferPointer(start: output, count: Int(length)), as: UTF8.self)
    }

    /// After the element's Issuer child, where SAML's schema puts ds:Signature; first child if it has none.
    private static func insert(_ signature: xmlNodePtr, into parent: xmlNodePtr) {
        var child = parent.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE, String(cString: current.pointee.name) == "Issuer" {
                xmlAddNextSibling(current, signature)
                return
            }
            child = current.pointee.next
        }
        if let first = parent.pointee.children { xmlAddPrevSibling(first, signature) } else { xmlAddChild(parent, signature) }
    }

    /// The XML of an HTTP-Redirect binding's `SAMLRequest` (base64 of raw DEFLATE).
    package static func inflate(_ base64: String) throws -> String {
        guard let compressed = Data(base64Encoded: base64) else { throw Failure(step: "base64") }
        var output = [UInt8](repeating: 0, count: 1 << 16)
        let length = compressed.withUnsafeBytes { input in
            output.withUnsafeMutableBufferPointer {
                flint_raw_inflate(input.bindMemory(to: UInt8.self).baseAddress, input.count, $0.baseAddress, $0.count)
            }
        }
        guard length > 0 else { throw Failure(step: "inflate") }
        return String(decoding: output[0..<length], as: UTF8.self)
    }

    /// The POST binding's encoding of a document.
    package static func encode(_ xml: String) -> String { Data(xml.utf8).base64EncodedString() }
}
