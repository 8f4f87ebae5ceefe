import Foundation

/// A local archive: reads are `pread`s, done at once.
extension RandomAccessFile: PMTilesByteSource {
    var isRemote: Bool { false }

    func read(_ ranges: [Range<UInt64>]) -> PMTilesPendingRead {
        do throws(POSIXFileError) {
            var parts: [Data] = []
            for range in ranges { parts.append(try data(at: range.lowerBound, count: Int(range.upperBound - range.lowerBound))) }
            return PMTilesPendingRead(completed: .success(parts), store: path)
        } catch {
            return PMTilesPendingRead(completed: .failure(error.storeError(store: path)), store: path)
        }
    }
}
