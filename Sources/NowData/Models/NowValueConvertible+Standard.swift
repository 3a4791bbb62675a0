import Foundation

extension String: NowValueConvertible {
    public init?(nowValue: String) { self = nowValue }
    public var nowValue: String { self }
}

extension Bool: NowValueConvertible {
    /// `true` from `"true"` or `"1"`, `false` from `"false"` or `"0"`.
    public init?(nowValue: String) {
        switch nowValue {
        case "true", "1": self = true
        case "false", "0": self = false
        default: return nil
        }
    }

    public var nowValue: String { self ? "true" : "false" }
}

extension Int: NowValueConvertible {
    public init?(nowValue: String) { self.init(nowValue) }
    public var nowValue: String { String(self) }
}

extension Double: NowValueConvertible {
    public init?(nowValue: String) { self.init(nowValue) }
    public var nowValue: String { String(self) }
}

extension Decimal: NowValueConvertible {
    /// The decimal number the string spells, such as `"1234.50"`; nil for anything that is not a number.
    public init?(nowValue: String) {
        guard Double(nowValue) != nil, let value = Decimal(string: nowValue, locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        self = value
    }

    public var nowValue: String { description }
}

extension URL: NowValueConvertible {
    public init?(nowValue: String) {
        guard !nowValue.isEmpty else { return nil }
        self.init(string: nowValue)
    }

    public var nowValue: String { absoluteString }
}

extension Date: NowValueConvertible {
    /// The date of a ServiceNow `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-dd` string, in UTC.
    public init?(nowValue: String) {
        guard let date = ServiceNowDate.date(from: nowValue) else { return nil }
        self = date
    }

    /// The `yyyy-MM-dd HH:mm:ss` UTC string.
    public var nowValue: String { ServiceNowDate.string(from: self) }

    /// Decodes the date through the decoder's date strategy; when that strategy reads numbers
    /// (`.deferredToDate`, `.secondsSince1970`), a string is read in ServiceNow's format instead.
    public init(nowValueFrom decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // A string first: it is what the Table API sends, and asking a string for a field object costs an error.
        guard let string = try? container.decode(String.self) else {
            if let object = NowValueDecoding.fieldObject(decoder) {
                self = try Date(nowValueFrom: object.superDecoder(forKey: .value))
            } else {
                self = try container.decode(Date.self)
            }
            return
        }
        do {
            self = try container.decode(Date.self)
        } catch DecodingError.typeMismatch {
            guard let date = Date(nowValue: string) else {
                throw NowValueDecoding.conversionError(Date.self, from: string, at: decoder.codingPath)
            }
            self = date
        } catch {
            throw NowValueDecoding.conversionError(Date.self, from: string, at: decoder.codingPath)
        }
    }

    /// Encodes the date through the encoder's date strategy (ServiceNow's format with ``Coder/default``).
    public func encodeNowValue(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self)
    }
}

extension Optional: NowValueConvertible where Wrapped: NowValueConvertible {
    /// nil from `""`, else the wrapped value; nil (no value at all) when the string does not convert.
    public init?(nowValue: String) {
        if nowValue.isEmpty {
            self = .none
            return
        }
        guard let value = Wrapped(nowValue: nowValue) else { return nil }
        self = .some(value)
    }

    /// `""` for nil.
    public var nowValue: String { self?.nowValue ?? "" }

    /// nil from `null`, `""` and a field object whose `value` is `""`; else the wrapped value.
    public init(nowValueFrom decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .none
            return
        }
        if let string = try? container.decode(String.self) {
            if string.isEmpty {
                self = .none
                return
            }
        } else if let object = NowValueDecoding.fieldObject(decoder),
            (try? object.decode(String.self, forKey: .value)) == ""
        {
            self = .none
            return
        }
        self = .some(try Wrapped(nowValueFrom: decoder))
    }

    /// Encodes `""` for nil.
    public func encodeNowValue(to encoder: any Encoder) throws {
        guard let value = self else {
            var container = encoder.singleValueContainer()
            try container.encode("")
            return
        }
        try value.encodeNowValue(to: encoder)
    }
}
