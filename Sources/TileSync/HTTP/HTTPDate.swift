import Foundation

/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate every server sends today
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete forms that recipients must still
/// accept (RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`, asctime `Sun Nov  6 08:49:37 1994`), all
/// read byte by byte: a header is ASCII, and Foundation's `DateFormatter` traps on some
/// non-ASCII text (a combining mark after a digit), which a server may send.
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// The moment a header value names, nil when it is no HTTP date.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8.drop { $0 == 32 || $0 == 9 }.reversed().drop { $0 == 32 || $0 == 9 }.reversed())
        return fixdate(bytes) ?? rfc850(bytes) ?? asctime(bytes)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, exactly.
    private static func fixdate(_ bytes: [UInt8]) -> Date? {
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 32,
              bytes[7] == 32, bytes[11] == 32, bytes[16] == 32, text(bytes[26...]) == "GMT",
              let month = months.firstIndex(of: text(bytes[8..<11])), let day = number(bytes[5..<7]), let year = number(bytes[12..<16])
        else { return nil }
        return date(year: year, month: month + 1, day: day, time: bytes[17..<25])
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`: a two-digit year more than 50 years ahead is the last
    /// such year in the past.
    private static func rfc850(_ bytes: [UInt8]) -> Date? {
        guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")), longDayNames.contains(text(bytes[..<comma])),
              bytes.count == comma + 24, bytes[comma + 1] == 32, bytes[comma + 4] == UInt8(ascii: "-"),
              bytes[comma + 8] == UInt8(ascii: "-"), bytes[comma + 11] == 32, bytes[comma + 20] == 32, text(bytes[(comma + 21)...]) == "GMT",
              let month = months.firstIndex(of: text(bytes[(comma + 5)..<(comma + 8)])),
              let day = number(bytes[(comma + 2)..<(comma + 4)]), let shortYear = number(bytes[(comma + 9)..<(comma + 11)])
        else { return nil }
        let thisYear = 1970 + Int(Date().timeIntervalSince1970 / 31_556_952)
        var year = thisYear - thisYear % 100 + shortYear
        if year > thisYear + 50 { year -= 100 }
        return date(year: year, month: month + 1, day: day, time: bytes[(comma + 12)..<(comma + 20)])
    }

    /// `Sun Nov  6 08:49:37 1994` (a one-digit day after a space).
    private static func asctime(_ bytes: [UInt8]) -> Date? {
        guard bytes.count == 24, dayNames.contains(text(bytes[0..<3])), bytes[3] == 32, bytes[7] == 32, bytes[10] == 32, bytes[19] == 32,
              let month = months.firstIndex(of: text(bytes[4..<7])),
              let day = bytes[8] == 32 ? number(bytes[9..<10]) : number(bytes[8..<10]), let year = number(bytes[20..<24])
        else { return nil }
        return date(year: year, month: month + 1, day: day, time: bytes[11..<19])
    }

    /// The moment of a day and `HH:MM:SS` (a leap second allowed) in GMT.
    private static func date(year: Int, month: Int, day: Int, time: ArraySlice<UInt8>) -> Date? {
        let start = time.startIndex
        guard time.count == 8, time[start + 2] == UInt8(ascii: ":"), time[start + 5] == UInt8(ascii: ":"),
              let hour = number(time[start..<(start + 2)]), let minute = number(time[(start + 3)..<(start + 5)]),
              let second = number(time[(start + 6)..<(start + 8)]), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard (48...57).contains(digit) else { return nil }
            value = value * 10 + Int(digit - 48)
        }
        return value
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
