import CXMLSec

/// A parsed SAML message: owns its libxml2 document and frees it. Not Sendable: it lives within one verification.
final class XMLDocument {
    let pointer: xmlDocPtr

    /// Parses bytes without any DTD (a DOCTYPE is refused before anything it declares is read), network access or
    /// entity substitution.
    /// - Throws: ``SAMLError/doctypeNotAllowed``, ``SAMLError/malformedXML``.
    init(parsing bytes: [UInt8]) throws(SAMLError) {
        guard bytes.count < Int(Int32.max) else { throw .malformedXML }
        var sawDoctype: Int32 = 0
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                flint_xml_parse_without_dtd($0.baseAddress, Int32($0.count), &sawDoctype)
            }
        }
        if sawDoctype != 0 { throw .doctypeNotAllowed }
        guard let document else { throw .malformedXML }
        pointer = document
    }

    deinit { xmlFreeDoc(pointer) }

    /// The root element.
    var root: XMLElement? { xmlDocGetRootElement(pointer).map(XMLElement.init) }

    /// Registers every element's `ID` attribute (SAML's only ID attribute) as an XML ID, which is what same-document
    /// references (`URI="#…"`) resolve to; two equal IDs are refused rather than letting one of them win.
    /// - Throws: ``SAMLError/duplicateID(_:)``.
    func registerIDs() throws(SAMLError) {
        guard let root else { return }
        try root.forEachDescendantOrSelf { element throws(SAMLError) in
            guard let attribute = xmlHasNsProp(element.node, "ID", nil), let value = element.attribute("ID") else { return }
            if xmlAddID(nil, pointer, value, attribute) == nil { throw .duplicateID(value) }
        }
    }

    /// The element whose registered ID is `id`, if any.
    func element(withID id: String) -> XMLElement? {
        guard let attribute = xmlGetID(pointer, id), let parent = attribute.pointee.parent else { return nil }
        return XMLElement(node: parent)
    }
}

/// An element node of a live ``XMLDocument``; valid while the document lives.
struct XMLElement {
    let node: xmlNodePtr

    var localName: String { string(node.pointee.name) ?? "" }
    var namespace: String? { string(node.pointee.ns?.pointee.href) }

    func `is`(_ name: String, in namespace: String) -> Bool { localName == name && self.namespace == namespace }

    /// An attribute without namespace (SAML's and XML-DSig's own attributes have none).
    func attribute(_ name: String) -> String? {
        guard let value = xmlGetNoNsProp(node, name) else { return nil }
        defer { flint_xml_free(value) }
        return string(value)
    }

    /// Whether `parent` is this element's parent node.
    func isChild(of parent: XMLElement) -> Bool { node.pointee.parent == parent.node }

    /// The element children, in order.
    var children: [XMLElement] {
        var result: [XMLElement] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(XMLElement(node: current)) }
            child = current.pointee.next
        }
        return result
    }

    func children(_ name: String, in namespace: String) -> [XMLElement] { children.filter { $0.is(name, in: namespace) } }

    /// The one child of that name; nil if there is none.
    /// - Throws: ``SAMLError/malformedMessage(_:)`` when there are several.
    func child(_ name: String, in namespace: String) throws(SAMLError) -> XMLElement? {
        let matches = children(name, in: namespace)
        guard matches.count <= 1 else { throw .malformedMessage("more than one \(name) in \(localName)") }
        return matches.first
    }

    /// The one child of that name.
    /// - Throws: ``SAMLError/malformedMessage(_:)`` when there is none or several.
    func requiredChild(_ name: String, in namespace: String) throws(SAMLError) -> XMLElement {
        guard let found = try child(name, in: namespace) else { throw .malformedMessage("\(localName) has no \(name)") }
        return found
    }

    /// All the text of the element: every text and CDATA node below it, concatenated in document order. Comments and
    /// processing instructions are skipped, never used as an end: `user@evil.com<!---->.good.com` reads whole.
    var text: String {
        var bytes: [UInt8] = []
        func collect(_ first: xmlNodePtr?) {
            var node = first
            while let current = node {
                switch current.pointee.type {
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    if let content = current.pointee.content {
                        bytes.append(contentsOf: UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
                    }
                case XML_ELEMENT_NODE: collect(current.pointee.children)
                default: break
                }
                node = current.pointee.next
            }
        }
        collect(node.pointee.children)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Every element in the subtree, this one first, in document order.
    func forEachDescendantOrSelf(_ body: (XMLElement) throws(SAMLError) -> Void) throws(SAMLError) {
        try body(self)
        for child in children { try child.forEachDescendantOrSelf(body) }
    }

    /// The elements of that name anywhere in the subtree, this one included.
    func descendants(_ name: String, in namespace: String) -> [XMLElement] {
        var found: [XMLElement] = []
        try? forEachDescendantOrSelf { element throws(SAMLError) in if element.is(name, in: namespace) { found.append(element) } }
        return found
    }
}
