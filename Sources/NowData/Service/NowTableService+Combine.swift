#if canImport(Combine)
import Combine
import Foundation

/// The deprecated Combine forms of the operations, as in the iOS SDK. Each publisher sends its request when
/// it is subscribed to and emits one value or a ``NowDataError``. Combine does not exist on Linux, so these
/// are compiled on Apple platforms only.
extension NowTableService {
    @available(*, deprecated, message: "Use the async/await implementation of the method instead.")
    public func create<Model: SysIdentifiableModel & SendableMetatype>(
        _ model: Model, in tableName: String, path: String = Constants.resultPath, coder: Coder = .default,
        writeOptions: FieldWriteOptions? = nil, configuration: FetchConfiguration? = nil
    ) -> AnyPublisher<Model, NowDataError> {
        let prepared = Result {
            try prepareCreate(
                model, in: tableName, coder: coder, writeOptions: writeOptions,
                readConfiguration: configuration?.readConfiguration)
        }
        return publisher { [self] in
            let data = try await send(try prepared.get())
            return try Self.decode(Model.self, from: data, at: path, coder: coder)
        }
    }

    @available(*, deprecated, message: "Use the async/await implementation of the method instead.")
    public func createRecord(
        with fields: [FieldName: FieldValue], in tableName: String, writeOptions: FieldWriteOptions? = nil,
        configuration: FieldReadConfiguration? = nil
    ) -> AnyPublisher<Data, NowDataError> {
        publisher { [self] in
            try await createRecord(
                with: fields, in: tableName, writeOptions: writeOptions, configuration: configuration)
        }
    }

    @available(*, deprecated, message: "Use the async/await implementation of the method instead.")
    public func delete<Model: SysIdentifiableModel>(_ model: Model, from tableName: String)
        -> AnyPublisher<Void, NowDataError>
    {
        let sysId = model.sysId
        return publisher { [self] in try await deleteRecord(sysId: sysId, from: tableName) }
    }

    @available(*, deprecated, message: "Use the async/await implementation of the method instead.")
    public func deleteRecord(sysId: SysID, from tableName: String) -> AnyPublisher<Void, NowDataError> {
        publisher { [self] in try await deleteRecord(sysId: sysId, from: tableName) }
    }

    @available(*, deprecated, message: "Use the async/await implementation of the method instead.")
    public func model<Model: Decodable & SendableMetatype>(
        with sysId: SysID? = nil, from tableName: String, path: String = Constants.resultPath,
        coder: Coder = .default, configuration: FetchConfiguration? = nil
    ) -> AnyPublisher<Model, NowDataError> {
        publisher { [self] in
            let data = try await send(try prepareModel(with: sysId, from: tableName, configuration: configuration))
            return try Self.decode(Model.self, from: data, at: path, coder: coder)
        }
    }

    @available(*, deprecated, message: "Use the async/await implementation of the method instead.")
    public func record(with sysId: SysID, from tableName: String, configuration: FieldReadConfiguration? = nil)
        -> AnyPublisher<Data, NowDataError>
    {
        publisher { [self] in try await record(with: sysId, from: tableName, configuration: configuration) }
    }

    @available(*, deprecated, message: "Use the async/await implementation of the method instead.")
    public func records(from tableName: String, configuration: FetchConfiguration? = nil)
        -> AnyPublisher<Data, NowDataError>
    {
        publisher { [self] in try await records(from: tableName, configuration: configuration) }
    }

    @available(*, deprecated, message: "Use the async/await implementation of the method instead.")
    public func update<Model: SysIdentifiableModel & SendableMetatype>(
        _ model: Model, in tableName: String, coder: Coder = .default, writeOptions: FieldWriteOptions? = nil,
        configuration: FetchConfiguration? = nil
    ) -> AnyPublisher<Model, NowDataError> {
        let prepared = Result {
            try prepareUpdate(
                model, in: tableName, coder: coder, writeOptions: writeOptions,
                readConfiguration: configuration?.readConfiguration)
        }
        return publisher { [self] in
            let data = try await send(try prepared.get())
            return try Self.decode(Model.self, from: data, at: Constants.resultPath, coder: coder)
        }
    }

    @available(*, deprecated, message: "Use the async/await implementation of the method instead.")
    public func updateRecord(
        sysId: SysID, in tableName: String, with fields: [FieldName: FieldValue],
        writeOptions: FieldWriteOptions? = nil, configuration: FieldReadConfiguration? = nil
    ) -> AnyPublisher<Data, NowDataError> {
        publisher { [self] in
            try await updateRecord(
                sysId: sysId, in: tableName, with: fields, writeOptions: writeOptions, configuration: configuration)
        }
    }

    /// A publisher that runs `operation` when subscribed to.
    private func publisher<T>(_ operation: @escaping @Sendable () async throws -> T) -> AnyPublisher<
        T, NowDataError
    > {
        Deferred {
            Future<T, NowDataError> { promise in
                let fulfil = PromiseBox(promise)
                Task {
                    do {
                        fulfil.promise(.success(try await operation()))
                    } catch {
                        fulfil.promise(.failure(RequestPipeline.networkError(error)))
                    }
                }
            }
        }
        .eraseToAnyPublisher()
    }
}

/// A Combine promise, which may be fulfilled from any thread.
private final class PromiseBox<T>: @unchecked Sendable {
    let promise: (Result<T, NowDataError>) -> Void

    init(_ promise: @escaping (Result<T, NowDataError>) -> Void) {
        self.promise = promise
    }
}
#endif
