/// A reader's offer to read its tiles again by column, from the version it streams
/// (`TileColumnRereading`): declared by the reader (`TileReader.rereadSource`), taken by a writer
/// that declares it rereads blobs.
struct TileRereadSource {
    /// The rereading side of the reader.
    let rereader: any TileColumnRereading
}
