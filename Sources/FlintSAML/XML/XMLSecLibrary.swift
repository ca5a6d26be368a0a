import CXMLSec

/// libxml2 and xmlsec (OpenSSL engine), initialized once per process on first use: Swift runs a global's initializer
/// exactly once, under a lock, so concurrent first verifications are safe. After that every call works on its own
/// document and signature context, which libxml2 and xmlsec allow from any thread.
enum XMLSecLibrary {
    private static let status: Int32 = flint_xmlsec_initialize()

    /// Initializes the libraries if nothing has yet; throws if they could not be.
    static func ensureInitialized() throws(SAMLError) {
        guard status == 0 else { throw .libraryUnavailable(status) }
    }
}

/// A libxml2 string as a Swift string; nil stays nil.
func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
    pointer.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(xmlStrlen($0))), as: UTF8.self) }
}
