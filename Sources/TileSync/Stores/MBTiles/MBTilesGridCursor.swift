import Foundation

/// Streams an MBTiles file's UTFGrids: each `grids` row (zlib- or gzip-compressed JSON, or plain
/// JSON) joined with its coordinate's `grid_data` rows, as mb-util exports them; works on the
/// tables mb-util writes and on the views of the normalized schema alike.
final class MBTilesGridCursor: UTFGridCursor {
    private var rows: MBTilesRows
    private var statement: SQLiteStatement { rows.statement }
    private let data: SQLiteStatement?
    private let reader: MBTilesReader
    private let filter: TileFilter

    init(statement: SQLiteStatement, data: SQLiteStatement?, reader: MBTilesReader, filter: TileFilter) {
        rows = MBTilesRows(statement)
        self.data = data
        self.reader = reader
        self.filter = filter
    }

    func next() throws -> UTFGrid? {
        while try rows.step(reader: reader, item: "grids") {
            let coordinate: TileCoordinate
            do {
                coordinate = try MBTilesCursor.coordinate(of: statement, store: reader.location.address)
            } catch {
                let item = error.item.map { $0.hasPrefix("tile ") ? "grid " + $0.dropFirst(5) : "grids " + $0 }
                throw TileStoreError(.invalidTile, store: error.store, item: item, message: error.message)
            }
            guard filter.contains(coordinate) else { continue }
            return try grid(at: coordinate)
        }
        return nil
    }

    private func grid(at coordinate: TileCoordinate) throws -> UTFGrid {
        let item = "grid \(coordinate) (TMS row \(coordinate.tmsY))"
        func invalid(_ message: String) -> TileStoreError {
            TileStoreError(.invalidTile, store: reader.location.address, item: item, message: message)
        }
        guard let blob = statement.blob(at: 3), !blob.isEmpty else { throw invalid("grid is NULL or empty") }
        var json = [UInt8](blob)
        if json.first != UInt8(ascii: "{") {
            do {
                json = try GzipCodec.decompress(blob, limit: UTFGridJSON.maxSize)
            } catch {
                throw invalid("grid is not zlib-compressed JSON (\(error))")
            }
        }
        var keys: [(key: String, json: String)] = []
        if let data {
            defer { data.reset() }
            do {
                try data.bindMBTilesCoordinate(coordinate)
                while try data.step() {
                    guard let key = data.text(at: 0), let value = data.text(at: 1) else { throw invalid("a grid_data row has a NULL key_name or key_json") }
                    keys.append((key, value))
                }
            } catch let error as SQLiteError {
                throw reader.readError(error, item: item)
            }
        }
        do {
            return UTFGrid(coordinate: coordinate, canonicalJSON: try UTFGridJSON.canonical(grid: json, data: keys))
        } catch {
            throw invalid(error.reason)
        }
    }
}
