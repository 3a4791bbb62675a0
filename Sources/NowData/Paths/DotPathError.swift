/// Why a ``DotPath`` is invalid or names no value, with the one message every path user shows.
///
/// `no value at 'result.user' in path 'result.user.photos': key 'user' not found`
public struct DotPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong at the component.
    public enum Reason: Sendable, Hashable {
        /// The path has an empty component (`a..b`).
        case emptyComponent
        /// The object has no such key.
        case keyNotFound
        /// The array has no element at this index.
        case indexOutOfRange(count: Int)
        /// The component is not an index (`-1`, `name`) and the value is an array of `count` elements.
        case notAnIndex(count: Int)
        /// The value holding the component is not an object or array; `found` says what it is (`a string`).
        case notAContainer(found: String)
    }

    /// The path as written.
    public let path: String
    /// The position of the component at fault.
    public let component: Int
    /// What went wrong.
    public let reason: Reason

    /// An error at component `component` of `path`.
    public init(path: String, component: Int, reason: Reason) {
        self.path = path
        self.component = component
        self.reason = reason
    }

    private var components: [Substring] { path.split(separator: ".", omittingEmptySubsequences: false) }

    public var description: String {
        let components = components
        guard components.indices.contains(component) else { return "invalid path '\(path)'" }
        let name = components[component]
        let prefix = "no value at '\(components[...component].joined(separator: "."))' in path '\(path)': "
        let holder = component == 0 ? "the document" : "'\(components[..<component].joined(separator: "."))'"
        switch reason {
        case .emptyComponent:
            return "invalid path '\(path)': empty component"
        case .keyNotFound:
            return prefix + "key '\(name)' not found"
        case .indexOutOfRange(let count):
            return prefix + "index \(name) out of range (\(count) element\(count == 1 ? "" : "s"))"
        case .notAnIndex(let count):
            return prefix + "\(holder) is an array (\(count) element\(count == 1 ? "" : "s")), and '\(name)' is "
                + "not an index from 0"
        case .notAContainer(let found):
            let expected = DotPath.index(of: String(name)) == nil ? "an object" : "an array or an object"
            return prefix + "\(holder) is \(found), not \(expected)"
        }
    }
}
