import Foundation
import Testing
@testable import TileSync

@Suite("S3 XML answers read from their bytes")
struct S3XMLReaderTests {
    static func parse(_ text: String) -> S3XMLElement? { S3XMLElement.parse(Data(text.utf8)) }

    @Test("A listing page: keys with entities and character references, sizes, ETags, prefixes, continuation")
    func listingPage() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
              <Name>tiles</Name><Prefix>a&amp;b/</Prefix><KeyCount>2</KeyCount>
              <IsTruncated>true</IsTruncated><NextContinuationToken>t&#x2F;1&#61;</NextContinuationToken>
              <Contents><Key>a&amp;b/1/0/0.png</Key><Size>42</Size><ETag>&quot;0123456789abcdef0123456789ABCDEF&quot;</ETag></Contents>
              <!-- a comment <Contents> that is not one -->
              <Contents><Key><![CDATA[a&b/2/<1>/3.png]]></Key><Size>7</Size><ETag>"abc-2"</ETag><Owner/></Contents>
              <CommonPrefixes><Prefix>a&amp;b/9/</Prefix></CommonPrefixes>
            </ListBucketResult>
            """
        let page = try S3ListPage(parsing: Data(xml.utf8), prefix: "a&b/")
        #expect(page.objects == [S3ObjectSummary(key: "a&b/1/0/0.png", size: 42, etag: "\"0123456789abcdef0123456789ABCDEF\""),
                                 S3ObjectSummary(key: "a&b/2/<1>/3.png", size: 7, etag: "\"abc-2\"")])
        #expect(page.objects[0].md5?.hex.lowercased() == "0123456789abcdef0123456789abcdef")
        #expect(page.objects[1].md5 == nil)
        #expect(page.commonPrefixes == ["a&b/9/"])
        #expect(page.continuationToken == "t/1=")
    }

    @Test("Namespace prefixes are dropped, attributes skipped (a > inside quotes too), self-closing elements kept")
    func namesAndAttributes() throws {
        let root = try #require(Self.parse("<s3:Error a='x>y' b=\"<\"><s3:Code>NoSuchKey</s3:Code><Empty/><Message>caf\u{E9} &#233;&#xE9; \u{1F5FA}</Message></s3:Error>"))
        #expect(root.name == "Error")
        #expect(root.value("Code") == "NoSuchKey")
        #expect(root.child("Empty")?.text == "")
        #expect(root.value("Message") == "caf\u{E9} \u{E9}\u{E9} \u{1F5FA}")
        #expect(root.children.map(\.name) == ["Code", "Empty", "Message"])
    }

    @Test("Not well-formed is nil", arguments: [
        "", "   ", "text", "<a>", "<a></b>", "<a><b></a></b>", "<a/><b/>", "<a></a>tail", "<a>&unknown;</a>", "<a>&amp</a>",
        "<a>&#0;</a>", "<a>&#xD800;</a>", "<a>&#x;</a>", "<a>&#12a;</a>", "<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>",
        "<a><![CDATA[open</a>", "<a><!-- open</a>", "<?xml version='1.0'", "<a b='open></a>", "<a", "</a>", "<a:>x</a:>",
        "<a></a >x", "<a/ >",
    ])
    func malformed(text: String) {
        #expect(Self.parse(text) == nil)
    }

    @Test("Nesting past 64 levels is refused; 64 is read")
    func depth() {
        let deep = String(repeating: "<e>", count: 65) + String(repeating: "</e>", count: 65)
        #expect(Self.parse(deep) == nil)
        let fine = String(repeating: "<e>", count: 64) + String(repeating: "</e>", count: 64)
        #expect(Self.parse(fine)?.name == "e")
    }

    @Test("A byte-order mark and whitespace around the root are allowed")
    func bomAndWhitespace() {
        #expect(S3XMLElement.parse(Data([0xEF, 0xBB, 0xBF]) + Data("\n <Done>ok</Done>\r\n".utf8))?.text == "ok")
    }
}
