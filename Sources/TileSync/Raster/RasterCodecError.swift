extension RasterReencoder {
    /// Why raster bytes could not be decoded or encoded; `message` reads after "tile z/x/y".
    public struct CodecError: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            /// The bytes are not a valid image of their format.
            case invalid
            /// The image has more pixels than the decoding limit (a decompression bomb).
            case tooLarge
            /// The image is valid but cannot be re-encoded as asked (transparency into JPEG, GIF).
            case unsupported
        }

        public let kind: Kind
        public let message: String

        public init(_ kind: Kind, _ message: String) {
            self.kind = kind
            self.message = message
        }

        public var description: String { message }
    }
}
