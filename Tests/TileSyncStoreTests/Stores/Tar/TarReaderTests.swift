import Foundation
import Testing
@testable import TileSync

@Suite("Tar archives written by Python's tarfile: ./ prefixes, folders, pax names read; hostile entries skipped and named")
struct TarReaderTests {
    /// Writes a tar with Python's tarfile module (an independent writer), nil when python3 is missing.
    private func pythonTar(at path: String) throws -> Bool {
        let script = """
            import io, sys, tarfile
            with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT) as tar:
                def add(name, data=b"", kind=tarfile.REGTYPE, link=""):
                    info = tarfile.TarInfo(name); info.type = kind; info.linkname = link; info.size = len(data)
                    tar.addfile(info, io.BytesIO(data) if data else None)
                add("./0", kind=tarfile.DIRTYPE); add("./0/0", kind=tarfile.DIRTYPE)
                add("./0/0/0.png", b"\\x89PNG zero")
                add("1/1/0.png", b"\\x89PNG one")
                add("1/0/" + "1" * 1 + ".png", b"\\x89PNG pax", )
                add("../escape/1/0/0.png", b"\\x89PNG bad")
                add("/absolute/1/1/1.png", b"\\x89PNG bad")
                add("1/0/0.png", kind=tarfile.SYMTYPE, link="/etc/passwd")
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test("Three tiles are read with their bytes; the entry outside, the absolute one and the link are skipped, not followed")
    func pythonWritten() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("tiles.tar")
        guard try pythonTar(at: path) else {
            Issue.record("python3 with tarfile is needed to write the test archive")
            return
        }
        let reader = try TileStoreLocation(parsing: path).openReader()
        let cursor = try reader.tiles(matching: .all)
        var tiles: [String: String] = [:]
        while let tile = try cursor.next() { tiles[tile.coordinate.description] = String(decoding: tile.data.dropFirst(5), as: UTF8.self) }
        #expect(tiles == ["0/0/0": "zero", "1/1/0": "one", "1/0/1": "pax"])
        #expect(cursor.skipped.count == 3)
        #expect(cursor.skipped.named.map(\.item).sorted() == ["entry '../escape/1/0/0.png'", "entry '/absolute/1/1/1.png'", "entry '1/0/0.png'"])
    }
}
