import Foundation

/// The completion-handler forms of the operations.
///
/// Each starts its request at once and calls `completion` exactly once, on a task of Swift's cooperative
/// thread pool (not the main queue; hop to the main actor yourself for user-interface work). Cancellation
/// is not available in this form; use the `async` form to cancel. The model type of a completion handler
/// must be `SendableMetatype`, as every concrete type is unless one of its conformances is isolated to an actor.
extension NowTableService {
    /// ``create(_:in:coder:writeOptions:configuration:)`` with a completion handler.
    ///
    /// ```swift
    /// service.create(user, in: "sys_user") { result in
    ///     if case .success(let newUser) = result { print(newUser.sysId) }
    /// }
    /// ```
    public func create<Model: SysIdentifiableModel & SendableMetatype>(
        _ model: Model, in tableName: String, coder: Coder = .default, writeOptions: FieldWriteOptions? = nil,
        configuration: FetchConfiguration? = nil,
        completion: @escaping @Sendable (Result<Model, NowDataError>) -> Void
    ) {
        let prepared = Result {
            try prepareCreate(
                model, in: tableName, coder: coder, writeOptions: writeOptions,
                readConfiguration: configuration?.readConfiguration)
        }
        RequestPipeline.complete(completion) { [self] in
            let data = try await send(try prepared.get())
            return try Self.decode(Model.self, from: data, at: Constants.resultPath, coder: coder)
        }
    }

    /// ``createRecord(with:in:writeOptions:configuration:)`` with a completion handler.
    ///
    /// ```swift
    /// service.createRecord(with: fields, in: "incident", writeOptions: writeOptions,
    ///                      configuration: readConfiguration) { result in
    ///     if case .success(let data) = result { let record: NowRecord = data.convertToRecord() }
    /// }
    /// ```
    public func createRecord(
        with fields: [FieldName: FieldValue], in tableName: String, writeOptions: FieldWriteOptions? = nil,
        configuration: FieldReadConfiguration? = nil,
        completion: @escaping @Sendable (Result<Data, NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in
            try await createRecord(
                with: fields, in: tableName, writeOptions: writeOptions, configuration: configuration)
        }
    }

    /// ``createRecord(with:in:writeOptions:configuration:)`` for a dictionary of one value type, with a
    /// completion handler.
    public func createRecord<Value: FieldValueConvertible>(
        with fields: [FieldName: Value], in tableName: String, writeOptions: FieldWriteOptions? = nil,
        configuration: FieldReadConfiguration? = nil,
        completion: @escaping @Sendable (Result<Data, NowDataError>) -> Void
    ) {
        createRecord(
            with: fields.mapValues(\.fieldValue), in: tableName, writeOptions: writeOptions,
            configuration: configuration, completion: completion)
    }

    /// ``delete(_:from:)`` with a completion handler.
    ///
    /// ```swift
    /// service.delete(user, from: "sys_user") { result in
    ///     if case .failure(let error) = result { print("Deletion failed: \(error)") }
    /// }
    /// ```
    public func delete<Model: SysIdentifiableModel>(
        _ model: Model, from tableName: String, completion: @escaping @Sendable (Result<Void, NowDataError>) -> Void
    ) {
        deleteRecord(sysId: model.sysId, from: tableName, completion: completion)
    }

    /// ``deleteRecord(sysId:from:)`` with a completion handler.
    public func deleteRecord(
        sysId: SysID, from tableName: String, completion: @escaping @Sendable (Result<Void, NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in try await deleteRecord(sysId: sysId, from: tableName) }
    }

    /// ``model(_:with:from:path:coder:configuration:)`` with a completion handler.
    ///
    /// ```swift
    /// service.model(User.self, with: "5137153cc611227c000bbd1bd8cd2005", from: "sys_user") { result in
    ///     if case .success(let user) = result { print(user.name) }
    /// }
    /// ```
    public func model<Model: Decodable & SendableMetatype>(
        _ type: Model.Type = Model.self, with sysId: SysID? = nil, from tableName: String,
        path: String = Constants.resultPath, coder: Coder = .default, configuration: FetchConfiguration? = nil,
        completion: @escaping @Sendable (Result<Model, NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in
            try await model(
                Model.self, with: sysId, from: tableName, path: path, coder: coder, configuration: configuration)
        }
    }

    /// ``record(with:from:configuration:)`` with a completion handler.
    public func record(
        with sysId: SysID, from tableName: String, configuration: FieldReadConfiguration? = nil,
        completion: @escaping @Sendable (Result<Data, NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in
            try await record(with: sysId, from: tableName, configuration: configuration)
        }
    }

    /// ``records(from:configuration:)`` with a completion handler.
    ///
    /// ```swift
    /// service.records(from: "incident", configuration: config) { result in
    ///     if case .success(let data) = result { let records: [NowRecord] = data.convertToRecords() }
    /// }
    /// ```
    public func records(
        from tableName: String, configuration: FetchConfiguration? = nil,
        completion: @escaping @Sendable (Result<Data, NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in
            try await records(from: tableName, configuration: configuration)
        }
    }

    /// ``update(_:in:coder:writeOptions:configuration:)`` with a completion handler.
    public func update<Model: SysIdentifiableModel & SendableMetatype>(
        _ model: Model, in tableName: String, coder: Coder = .default, writeOptions: FieldWriteOptions? = nil,
        configuration: FetchConfiguration? = nil,
        completion: @escaping @Sendable (Result<Model, NowDataError>) -> Void
    ) {
        let prepared = Result {
            try prepareUpdate(
                model, in: tableName, coder: coder, writeOptions: writeOptions,
                readConfiguration: configuration?.readConfiguration)
        }
        RequestPipeline.complete(completion) { [self] in
            let data = try await send(try prepared.get())
            return try Self.decode(Model.self, from: data, at: Constants.resultPath, coder: coder)
        }
    }

    /// ``updateRecord(sysId:in:with:writeOptions:configuration:)`` with a completion handler.
    ///
    /// ```swift
    /// service.updateRecord(sysId: sysId, in: "incident", with: ["state": 2]) { result in
    ///     if case .failure(let error) = result { print("Update failed: \(error)") }
    /// }
    /// ```
    public func updateRecord(
        sysId: SysID, in tableName: String, with fields: [FieldName: FieldValue],
        writeOptions: FieldWriteOptions? = nil, configuration: FieldReadConfiguration? = nil,
        completion: @escaping @Sendable (Result<Data, NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in
            try await updateRecord(
                sysId: sysId, in: tableName, with: fields, writeOptions: writeOptions, configuration: configuration)
        }
    }

    /// ``updateRecord(sysId:in:with:writeOptions:configuration:)`` for a dictionary of one value type, with a
    /// completion handler.
    public func updateRecord<Value: FieldValueConvertible>(
        sysId: SysID, in tableName: String, with fields: [FieldName: Value],
        writeOptions: FieldWriteOptions? = nil, configuration: FieldReadConfiguration? = nil,
        completion: @escaping @Sendable (Result<Data, NowDataError>) -> Void
    ) {
        updateRecord(
            sysId: sysId, in: tableName, with: fields.mapValues(\.fieldValue), writeOptions: writeOptions,
            configuration: configuration, completion: completion)
    }
}
