import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A small XML tree for S3's answers (a listing page of 1,000 keys, an error, a delete
/// result): element names without namespaces, text, children.
final class S3XMLElement {
    let name: String
    var text = ""
    var children: [S3XMLElement] = []

    init(name: String) {
        self.name = name
    }

    /// The first child of that name.
    func child(_ name: String) -> S3XMLElement? { children.first { $0.name == name } }

    /// Every child of that name.
    func children(_ name: String) -> [S3XMLElement] { children.filter { $0.name == name } }

    /// The text of the first child of that name.
    func value(_ name: String) -> String? { child(name)?.text }

    /// Parses a document; nil when it is not well-formed XML.
    static func parse(_ data: Data) -> S3XMLElement? {
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.delegate = builder
        guard parser.parse() else { return nil }
        return builder.root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: S3XMLElement?
        private var stack: [S3XMLElement] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            let element = S3XMLElement(name: local)
            stack.last?.children.append(element)
            if root == nil { root = element }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            _ = stack.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }
    }
}
