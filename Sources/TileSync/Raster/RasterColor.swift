import Foundation

extension RasterReencoder {
    /// An opaque colour, what `--background` names for tiles flattened into JPEG.
    public struct Color: Sendable, Hashable, CustomStringConvertible {
        public let red: UInt8
        public let green: UInt8
        public let blue: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// Reads `#RRGGBB`, `#RGB` (the `#` optional), `white` or `black`; nil for anything else.
        public init?(parsing text: String) {
            let name = text.trimmingCharacters(in: .whitespaces).lowercased()
            switch name {
            case "white": self.init(red: 255, green: 255, blue: 255)
            case "black": self.init(red: 0, green: 0, blue: 0)
            default:
                var hex = Substring(name)
                if hex.hasPrefix("#") { hex = hex.dropFirst() }
                guard hex.allSatisfy(\.isHexDigit) else { return nil }
                if hex.count == 3 { hex = Substring(hex.flatMap { [$0, $0] }) }
                guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
                self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
            }
        }

        /// `#rrggbb`.
        public var description: String {
            "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }
}
