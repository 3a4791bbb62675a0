import Foundation

extension Paginator: AsyncSequence {
    public typealias Element = Model

    /// Iterates the pages from the first: `for try await page in paginator`.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let paginator: Paginator<Model>
        var started = false

        /// The next page, nil after the last (or at ``Paginator/maxRecords``).
        public mutating func next() async throws -> Model? {
            guard started else {
                started = true
                if paginator.maxRecords == 0 { return nil }
                return try await paginator.first()
            }
            return try await paginator.next()
        }
    }

    /// An iterator that starts at the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(paginator: self)
    }
}
