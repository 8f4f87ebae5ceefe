extension POSIXFileError {
    /// This failure as a user's error: `.io` naming the store and the item (the path by
    /// default), with the disk-full hint when the disk is full.
    func storeError(store: String, item: String? = nil) -> TileStoreError {
        TileStoreError(.io, store: store, item: item ?? path, message: description,
                       hint: isDiskFull ? TileStoreError.diskFullHint : nil)
    }
}
