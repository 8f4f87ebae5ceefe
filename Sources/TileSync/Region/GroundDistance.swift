import Foundation

/// A distance on the ground in metres, written `500m`, `2km` or `2.5 km` (the `--buffer` option).
public struct GroundDistance: Sendable, Hashable, CustomStringConvertible {
    /// Metres, finite and not negative.
    public let metres: Double

    /// The longest distance accepted: a quarter of the Earth's circumference.
    public static let maximumMetres = 10_000_000.0

    /// - Throws: `GeographyError.malformedDistance` for a negative, non-finite or too large value.
    public init(metres: Double) throws(GeographyError) {
        guard metres.isFinite, (0...Self.maximumMetres).contains(metres) else {
            throw .malformedDistance("\(metres) m")
        }
        self.metres = metres
    }

    /// Parses a number followed by `m` or `km`.
    /// - Throws: `GeographyError.malformedDistance`.
    public init(parsing text: String) throws(GeographyError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(suffix: String, metres: Double)] = [("km", 1000), ("m", 1)]
        guard let unit = units.first(where: { trimmed.hasSuffix($0.suffix) }),
              let number = Double(trimmed.dropLast(unit.suffix.count).trimmingCharacters(in: .whitespaces)),
              number.isFinite, number >= 0, number * unit.metres <= Self.maximumMetres
        else { throw .malformedDistance(text) }
        self.metres = number * unit.metres
    }

    /// `500 m`, `2.5 km`.
    public var description: String {
        metres >= 1000 ? "\(DegreeText.format(metres / 1000)) km" : "\(DegreeText.format(metres)) m"
    }
}
