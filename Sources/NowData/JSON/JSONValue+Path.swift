extension JSONValue {
    /// The value at `path`: the value itself for an empty path.
    ///
    /// - Throws: ``DotPathError`` when a component names no value.
    public func value(at path: DotPath) throws(DotPathError) -> JSONValue {
        try value(at: path, from: 0)
    }

    /// The value at `path`'s components from `start` on, this value standing for the ones before: a caller that
    /// walked the start of a path its own way goes on here, and an error names its component in the whole path.
    ///
    /// - Throws: ``DotPathError`` when a component names no value.
    package func value(at path: DotPath, from start: Int) throws(DotPathError) -> JSONValue {
        var value = self
        let first = max(start, 0)
        for position in first..<max(first, path.components.count) {
            let component = path.components[position]
            switch value {
            case .object(let members):
                guard let member = members[component] else {
                    throw DotPathError(path: path.text, component: position, reason: .keyNotFound)
                }
                value = member
            case .array(let elements):
                guard let index = DotPath.index(of: component) else {
                    throw DotPathError(path: path.text, component: position, reason: .notAnIndex(count: elements.count))
                }
                guard index < elements.count else {
                    throw DotPathError(
                        path: path.text, component: position, reason: .indexOutOfRange(count: elements.count))
                }
                value = elements[index]
            default:
                throw DotPathError(path: path.text, component: position, reason: .notAContainer(found: value.kindDescription))
            }
        }
        return value
    }

    /// The value at the dot-separated `path`, as ``value(at:)-(DotPath)``.
    public func value(at path: String) throws(DotPathError) -> JSONValue {
        try value(at: DotPath(path))
    }
}
