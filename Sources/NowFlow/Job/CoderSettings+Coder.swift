import Foundation
import NowData

extension CoderSettings {
    /// The `Coder` for the job's dates: `.default` for ServiceNow's format, ISO 8601, or the pattern (in UTC).
    var coder: Coder {
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        switch dates {
        case .servicenow:
            return .default
        case .iso8601:
            encoder.dateEncodingStrategy = .iso8601
            decoder.dateDecodingStrategy = .iso8601
        case .pattern(let pattern):
            let formatter = Self.formatter(pattern, zone: TimeZone(identifier: "UTC"))
            encoder.dateEncodingStrategy = .formatted(formatter)
            decoder.dateDecodingStrategy = .formatted(formatter)
        }
        return .custom(encoder, decoder)
    }

    /// The pattern dates are shown in: the instance's own, with the zone's abbreviation.
    var displayPattern: String {
        switch dates {
        case .servicenow, .iso8601: "yyyy-MM-dd HH:mm:ss xxx"
        case .pattern(let pattern): pattern + " xxx"
        }
    }

    static func formatter(_ pattern: String, zone: TimeZone?) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter
    }
}
