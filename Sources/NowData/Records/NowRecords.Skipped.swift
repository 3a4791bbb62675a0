import Foundation

extension NowRecords {
    /// An element of a response's array that is not a record: where it is, what it is, and why.
    public struct Skipped: Sendable, Hashable, CustomStringConvertible {
        /// The element's index in the array.
        public let index: Int
        /// The element as sent.
        public let element: JSONValue
        /// Why the element is not a record.
        public let reason: Reason
        /// The element's coding path: `result`, `Index 3`.
        let codingPath: [RecordKey]

        init(index: Int, element: JSONValue, reason: Reason, codingPath: [RecordKey]) {
            self.index = index
            self.element = element
            self.reason = reason
            self.codingPath = codingPath
        }

        /// The error ``NowRecord/records(from:)`` throws for the element: a
        /// ``NowDataError/cannotDecodeModel(_:)`` whose coding path names the element and, for a malformed field,
        /// the field and its member.
        public var error: NowDataError {
            .cannotDecodeModel(reason.decodingError(at: codingPath))
        }

        /// Where and why: `result[3]: not a record: it holds only metadata ('__meta')`,
        /// `result[0].caller_id.link: expected a string or null, found a number`.
        public var description: String {
            guard case .cannotDecodeModel(let error) = error, let context = Self.context(of: error) else {
                return error.description
            }
            return "\(ErrorText.codingPath(context.codingPath)): \(context.debugDescription)"
        }

        private static func context(of error: DecodingError) -> DecodingError.Context? {
            switch error {
            case .typeMismatch(_, let context), .dataCorrupted(let context): context
            default: nil
            }
        }
    }
}

extension NowRecords.Skipped {
    /// Why an element is not a record.
    public enum Reason: Sendable, Hashable {
        /// The element is not an object; `found` is what it is (`a number`, `an array`).
        case notAnObject(found: String)
        /// Every member of the element is named `__…`: metadata about the response, such as the Change Management
        /// API's trailing `{"__meta": {"encodedQuery": ..., "fields": ...}}`, not a record.
        case metadata(keys: [String])
        /// A field object (a member with `value`, `display_value` or `link`) has a `member` that is not what a
        /// field holds; `found` is what it is instead.
        case malformedField(FieldName, member: String, found: String)

        /// The error at `codingPath`, the element's: a `typeMismatch` for what is not an object and for a malformed
        /// field (at the field's member), a `dataCorrupted` for metadata.
        func decodingError(at codingPath: [any CodingKey]) -> DecodingError {
            switch self {
            case .notAnObject(let found):
                return .typeMismatch(
                    NowRecord.self,
                    DecodingError.Context(
                        codingPath: codingPath, debugDescription: "expected a record (an object), found \(found)"))
            case .metadata(let keys):
                let names = keys.map { "'\($0)'" }.joined(separator: ", ")
                return .dataCorrupted(
                    DecodingError.Context(
                        codingPath: codingPath, debugDescription: "not a record: it holds only metadata (\(names))"))
            case .malformedField(let name, let member, let found):
                return NowRecord.Field.MalformedField(member: member, found: found)
                    .decodingError(at: codingPath + [RecordKey.member(name)])
            }
        }
    }
}
