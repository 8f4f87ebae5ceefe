import Foundation

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

    /// Parses a document (`S3XMLReader`); nil when it is not well-formed XML.
    static func parse(_ data: Data) -> S3XMLElement? {
        data.withUnsafeBytes { raw in S3XMLReader.parse(raw.bindMemory(to: UInt8.self)) }
    }
}
