import Foundation

/// Where JSON text is malformed; `JSONDecoder` on Linux reports only that it is.
package enum JSONSyntax {
    /// The context of a "not valid JSON" decoding error, completed with the parser's account of where the text
    /// breaks: `The given data was not valid JSON: Invalid value around line 1, column 18.`
    package static func locate(_ context: DecodingError.Context, in data: Data) -> DecodingError.Context {
        let failure: any Error
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
            return context
        } catch {
            failure = error
        }
        guard let detail = (failure as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return context }
        return DecodingError.Context(
            codingPath: context.codingPath,
            debugDescription: "The given data was not valid JSON: \(lineAndColumn(detail, in: data))")
    }

    /// `Invalid value around character 17.` as `Invalid value around line 1, column 18.`
    private static func lineAndColumn(_ detail: String, in data: Data) -> String {
        guard let range = detail.range(of: #"character \d+"#, options: .regularExpression),
            let offset = Int(detail[range].dropFirst("character ".count)), offset <= data.count
        else { return detail }
        let before = data.prefix(offset)
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 - data.startIndex + 1 } ?? 0) + 1
        return detail.replacingCharacters(in: range, with: "line \(line), column \(column)")
    }
}
