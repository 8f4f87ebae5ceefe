/// A sample of a folder tree's file paths for choosing its layout
/// (`TileTreeLayoutDetection`): at most 64 files under each top-level folder, the folders
/// taken from the last name (the highest zoom, whose numbers say most) backwards, and at most
/// `TileTreeLayoutDetection.sampleSize` in all. No file is read.
enum DirectoryPathSample {
    /// How many entries a sample looks at before it stops.
    static let entryLimit = 100_000
    /// How many files one top-level folder gives.
    static let perFolder = 64
    /// UTFGrids beside tiles say nothing about the layout (it is derived from the tiles').
    private static let gridSuffix = Array(".grid.json".utf8)

    /// Relative file paths of `root` (no metadata, sync state or staging); empty when the
    /// folder cannot be listed (reading it later says why).
    static func paths(root: String) -> [String] {
        guard let walker = try? DirectoryWalker(root: root, reversedDepth: 0) else { return [] }
        var paths: [String] = []
        var visited = 0
        var takenInTop = 0
        while paths.count < TileTreeLayoutDetection.sampleSize, visited < entryLimit, let entry = walker.next() {
            visited += 1
            if entry.depth == 0 {
                takenInTop = 0
            }
            switch entry.kind {
            case .directory:
                if entry.depth == 0, entry.name.elementsEqual(DirectoryTileWalk.stagingFolder.utf8) { continue }
                guard takenInTop < perFolder, entry.depth < 16 else { continue }
                try? walker.descend(into: entry)
            case .file:
                if entry.name.count > gridSuffix.count, entry.name.suffix(gridSuffix.count).elementsEqual(gridSuffix) { continue }
                if entry.depth == 0 {
                    guard !DirectoryTileWalk.rootMetadataFiles.contains(entry.relativePath) else { continue }
                } else {
                    guard takenInTop < perFolder else { continue }
                    takenInTop += 1
                }
                paths.append(entry.relativePath)
            case .symbolicLink, .other:
                continue
            }
        }
        return paths
    }
}
