import Synchronization

/// The instance's dictionary as ``JobRunner/checkNames()`` read it, kept for the run that follows with the same
/// ``RunOptions``: the run checks the condition values known only then (a `where:` value from a template, a
/// rendered `query:`) against the field's type and choices before sending them.
public final class CheckedDictionary: Sendable {
    private let stored = Mutex<InstanceDictionary?>(nil)

    /// Nothing read yet.
    public init() {}

    var dictionary: InstanceDictionary? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
