import Foundation
import Testing
@testable import TileSync
#if canImport(Glibc)
import Glibc
#endif

/// One test per defect the review of the registry change found; each failed before its fix.
@Suite("Defects found by review")
struct ReviewDefectTests {
    /// Every regular file under `root` (links not followed) and its bytes.
    static func files(under root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return files }
        for case let relative as String in enumerator {
            let path = root + "/" + relative
            guard (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular else { continue }
            files[relative] = FileManager.default.contents(atPath: path)
        }
        return files
    }

    @Test("sync never writes or deletes through a link inside a folder destination; the link becomes a real folder")
    func linkInsideDestination() throws {
        let directory = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 3)
        try GeneratedStore.write(tiles, to: directory.file("a.mbtiles"))
        try GeneratedStore.write(tiles.filter { $0.coordinate.z != 2 }, to: directory.file("b"))
        let outside = directory.file("outside")
        try FileManager.default.createDirectory(atPath: outside + "/1", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: outside + "/1/1.jpg", contents: Data("not a tile of b".utf8)))
        #expect(FileManager.default.createFile(atPath: outside + "/1/2.png", contents: Data("mine".utf8)))
        try FileManager.default.createSymbolicLink(atPath: directory.file("b/2"), withDestinationPath: outside)
        let before = Self.files(under: outside)

        var options = SyncOptions()
        options.delete = true
        let summary = try TileSynchronizer.sync(from: TileStoreLocation(kind: .mbtiles, address: directory.file("a.mbtiles")),
                                                to: TileStoreLocation(kind: .directory, address: directory.file("b")), options: options)
        #expect(summary.added == 16)
        #expect(Self.files(under: outside) == before)
        let type = try FileManager.default.attributesOfItem(atPath: directory.file("b/2"))[.type] as? FileAttributeType
        #expect(type == .typeDirectory)
        #expect(try StoreContents.tiles(directory.file("b")) == Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) }))
    }

    @Test("A staged file is flushed before the journal commits (one flush of the file system, else each file)")
    func stagedFilesDurableBeforeCommit() throws {
        let directory = try TemporaryDirectory()
        let root = directory.file("tree")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: root)
        let updater = DirectoryUpdater(location: TileStoreLocation(kind: .directory, address: root), layout: nil)
        var seenAtFlush: (journalCommitted: Bool, staged: [String])?
        updater.flushFileSystem = { _ in
            seenAtFlush = (AtomicFile.exists(root + "/" + DirectoryUpdater.journalName),
                           ((try? FileManager.default.contentsOfDirectory(atPath: root + "/.tilesync-staging")) ?? []).sorted())
            return false
        }
        let tile = try TileCoordinate(z: 1, x: 1, y: 1)
        try updater.begin(metadata: GeneratedStore.defaultMetadata, format: SniffedTileFormat(.png))
        try updater.put(Tile(coordinate: tile, data: GeneratedStore.bytes(for: tile, salt: "new")), hash: .unknown, modificationTime: 0)
        try updater.finish()
        #expect(seenAtFlush?.journalCommitted == false)
        #expect(seenAtFlush?.staged == ["1", "2", "journal"])
        #expect(FileManager.default.contents(atPath: root + "/1/1/1.png") == GeneratedStore.bytes(for: tile, salt: "new"))
        #expect(!AtomicFile.exists(root + "/.tilesync-staging") && !AtomicFile.exists(root + "/" + DirectoryUpdater.journalName))
    }

    @Test("Files dated before 1970 sync between folders, new and existing, keeping their times")
    func filesBefore1970() throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: directory.file("a"))
        let old: Int64 = -1_499_999_999
        #expect(FileTime.setModificationTime(old, path: directory.file("a/1/0/0.png")))
        let a = TileStoreLocation(kind: .directory, address: directory.file("a"))
        let b = TileStoreLocation(kind: .directory, address: directory.file("b"))
        #expect(try TileSynchronizer.sync(from: a, to: b).added == 5)
        #expect(FileStamp(path: directory.file("b/1/0/0.png"))?.modificationTime == old)
        #expect(FileManager.default.createFile(atPath: directory.file("a/1/0/0.png"), contents: Data([0x89, 0x50, 0x4E, 0x47, 1])))
        #expect(FileTime.setModificationTime(old - 86_400_000_000_000, path: directory.file("a/1/0/0.png")))
        #expect(try TileSynchronizer.sync(from: a, to: b).replaced == 1)
        #expect(FileStamp(path: directory.file("b/1/0/0.png"))?.modificationTime == old - 86_400_000_000_000)
        #expect(try TileSynchronizer.sync(from: a, to: b).isInSync)
        #expect(FileTime.timeSpec(nanoseconds: -1).tv_sec == -1 && FileTime.timeSpec(nanoseconds: -1).tv_nsec == 999_999_999)
    }

    @Test("Stored-hash sampling handles rowids at the 64-bit limits")
    func rowidsAtTheLimits() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("limits.mbtiles")
        let connection = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try connection.execute(MBTilesWriter.schemaSQL(.flatWithHash))
        let insert = try connection.prepare(
            "INSERT INTO tiles_with_hash (rowid, zoom_level, tile_column, tile_row, tile_data, tile_hash) VALUES (?1, ?2, 0, 0, ?3, ?4)")
        for (rowid, z) in [(Int.min, 0), (Int.max, 1)] {
            let data = Data("tile \(z)".utf8)
            try insert.bind(rowid, at: 1)
            try insert.bind(z, at: 2)
            try insert.bind(data, at: 3)
            try insert.bind(ContentHash(of: data).hex, at: 4)
            try insert.run()
        }
        let reader = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: path))
        #expect(reader.hasVerifiedStoredHashes)
        #expect(MBTilesReader.interpolate(Int.min, Int.max, step: 0, of: 15) == Int.min)
        #expect(MBTilesReader.interpolate(Int.min, Int.max, step: 15, of: 15) == Int.max)
        #expect(MBTilesReader.interpolate(-10, 20, step: 5, of: 15) == 0)
    }

    @Test("A damaged or hostile sync state is dropped with a warning and rebuilt",
          arguments: ["garbage", "UPDATE entry SET z = 63 WHERE z = 1 AND x = 0 AND y = 0",
                      "UPDATE entry SET size = 9223372036854775807 WHERE z = 1", "DROP TABLE entry"])
    func hostileSyncState(damage: String) throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 2), to: directory.file("a.mbtiles"))
        let a = TileStoreLocation(kind: .mbtiles, address: directory.file("a.mbtiles"))
        let b = TileStoreLocation(kind: .mbtiles, address: directory.file("b.mbtiles"))
        #expect(try TileSynchronizer.sync(from: a, to: b).added == 21)
        let state = directory.file(".b.mbtiles.tilesync-state")
        if damage == "garbage" {
            #expect(FileManager.default.createFile(atPath: state, contents: Data(repeating: 0x5A, count: 4096)))
        } else {
            try SQLiteConnection(path: state, mode: .readWrite).execute(damage)
        }
        #expect(FileTime.setModificationTime(1_000_000_000, path: directory.file("b.mbtiles")))
        let summary = try TileSynchronizer.sync(from: a, to: b)
        #expect(summary.isInSync && summary.unchanged == 21)
        #expect(summary.warnings.count == 1)
        #expect(summary.warnings.first?.hasPrefix(state + ": the sync state ") == true)
        #expect(summary.warnings.first?.hasSuffix("; it was ignored and will be rebuilt") == true)
        let again = try TileSynchronizer.sync(from: a, to: b)
        #expect(again.quickCheckSkippedComparison && again.warnings.isEmpty)
    }

    @Test("MD5 works when libcrypto refuses it: a failed fetch gives no digest, and Swift's MD5 takes over")
    func digestFallback() throws {
        let vectors = [("", "D41D8CD98F00B204E9800998ECF8427E"), ("abc", "900150983CD24FB0D6963F7D28E17F72"),
                       ("message digest", "F96B697D7CB7938D525A2F31AAF161D0"),
                       (String(repeating: "1234567890", count: 8), "57EDF4A22BE3C955AC49DA2E2107B67A")]
        #if !canImport(CryptoKit)
        let refused = OneShotDigest(fetching: "NO-SUCH-DIGEST")
        #expect(!refused.isAvailable)
        for (text, hex) in vectors {
            #expect(refused.digest(Data(text.utf8)) == nil)
            #expect(MD5Hasher.hash(Data(text.utf8), with: refused).hex == hex)
        }
        #endif
        for (text, hex) in vectors {
            let portable = MD5Hasher(libcrypto: false)
            for chunk in Array(text.utf8).chunked(into: 7) { portable.update(Data(chunk)) }
            #expect(try portable.finalize().hex == hex)
        }
        let long = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 131) })
        #expect(PortableMD5.hash(long) == ContentHash(of: long))
    }

    @Test("One EINTR loop for every blocking call: a call interrupted by a signal is made again")
    func interruptedCalls() throws {
        var calls = 0
        let result = retryingOnInterrupt { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
        #if os(Linux)
        let directory = try TemporaryDirectory()
        let fifo = directory.file("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        #expect(sigaction(SIGUSR1, &action, nil) == 0)
        let outcome = LockedValue<(thread: pthread_t, error: POSIXFileError?)>((0, nil))
        let started = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        Thread {
            // Test threads come from a pool that blocks signals; this one must receive it.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            outcome.withLock { $0.thread = pthread_self() }
            started.signal()
            do {
                _ = try FileBytes.read(fifo)
            } catch let error as POSIXFileError {
                outcome.withLock { $0.error = error }
            } catch {
                Issue.record(error)
            }
            finished.signal()
        }.start()
        started.wait()
        usleep(100_000)
        pthread_kill(outcome.withLock { $0.thread }, SIGUSR1)
        usleep(100_000)
        let writer = open(fifo, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        let error = outcome.withLock { $0.error }
        #expect(error?.operation == "read" && error?.code == EINVAL, "\(String(describing: error))")
        #endif
    }
}

extension Array {
    /// The array in pieces of `size` elements (the last may be shorter).
    func chunked(into size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
