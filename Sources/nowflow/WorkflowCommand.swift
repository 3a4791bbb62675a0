import Foundation

/// A GitHub Actions workflow command, such as `::error file=job.yaml,line=3,col=5,title=invalid job file::message`,
/// escaped as the runner reads it: `%`, `\r` and `\n` in the message, and also `:` and `,` in a property's value.
struct WorkflowCommand: CustomStringConvertible {
    /// `error`, `warning` or `notice`.
    var name: String
    /// The properties in order: `file`, `line`, `col`, `title`.
    var properties: [(name: String, value: String)]
    var message: String

    init(_ name: String, _ properties: [(name: String, value: String)], _ message: String) {
        self.name = name
        self.properties = properties
        self.message = message
    }

    var description: String {
        let list = properties.map { "\($0.name)=\(Self.escapedProperty($0.value))" }.joined(separator: ",")
        return "::\(name)\(list.isEmpty ? "" : " " + list)::\(Self.escapedData(message))"
    }

    /// A message as the runner reads it back: `%25`, `%0D`, `%0A`.
    static func escapedData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property's value: as a message, and `%3A` for `:`, `%2C` for `,`.
    static func escapedProperty(_ text: String) -> String {
        escapedData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
