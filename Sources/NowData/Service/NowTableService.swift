import Foundation

/// Create, read, update and delete records of the tables of a ServiceNow instance through the Table API.
///
/// ```swift
/// struct User: SysIdentifiableModel { var sysId: String = ""; var name: String }
///
/// let service = NowTableService(configuration: NowServiceConfiguration(
///     instanceURL: URL(string: "https://example.service-now.com")!,
///     authentication: .basic(user: "admin", password: secret)))
/// let created = try await service.create(User(name: "Ash Williams"), in: "sys_user")
/// let users = try await service.model([User].self, from: "sys_user")
/// ```
///
/// Every operation comes as `async throws` and with a completion handler; both fail with ``NowDataError``
/// only. Completion handlers are called once, on a task of Swift's cooperative thread pool, never on the
/// main queue: hop to the main actor yourself to update a user interface.
///
/// Requests that fail for a passing reason are retried as ``RetryPolicy`` says. A create is never duplicated:
/// every POST carries a sys_id the client assigns, and after any failure it retries (one whose outcome is
/// unknown, such as a dropped connection, a 502 or 504 or a lost response, included) the service first reads
/// that sys_id back; when the record exists the create is over and that record is returned, otherwise the
/// same POST is sent again.
public final class NowTableService: Sendable {
    /// The configuration the service was created with.
    public let configuration: NowServiceConfiguration
    /// The core services associated with this service, if any.
    public let coreServiceProvider: NowCoreServiceProviding?
    let pipeline: RequestPipeline

    /// Creates a table service.
    ///
    /// - Parameters:
    ///   - configuration: the instance and how to reach it.
    ///   - coreServiceProvider: core services to associate; their authentication is used when the
    ///     configuration's is ``NowAuthentication/none``.
    public init(configuration: NowServiceConfiguration, coreServiceProvider: NowCoreServiceProviding? = nil) {
        self.configuration = configuration
        self.coreServiceProvider = coreServiceProvider
        pipeline = RequestPipeline(configuration: configuration, coreServiceProvider: coreServiceProvider)
    }

    // MARK: - Create

    /// Inserts a Codable model into a table and returns it as the instance stored it.
    ///
    /// The model's own sys_id is ignored: the record gets a new one, which the returned model carries.
    ///
    /// ```swift
    /// let newUser = try await service.create(User(name: "Ash Williams"), in: "sys_user")
    /// ```
    ///
    /// - Parameters:
    ///   - model: the fields to insert.
    ///   - tableName: the table, such as `incident`.
    ///   - coder: encodes the model and decodes the result.
    ///   - writeOptions: how the values are written.
    ///   - configuration: the fields to return and their form (its read configuration; filter and limit do
    ///     not apply to a write).
    /// - Returns: the inserted model, with its sys_id.
    /// - Throws: ``NowDataError``.
    public func create<Model: SysIdentifiableModel>(
        _ model: Model, in tableName: String, coder: Coder = .default, writeOptions: FieldWriteOptions? = nil,
        configuration: FetchConfiguration? = nil
    ) async throws -> Model {
        try await Self.mappingErrors {
            let request = try prepareCreate(
                model, in: tableName, coder: coder, writeOptions: writeOptions,
                readConfiguration: configuration?.readConfiguration)
            let data = try await send(request)
            return try Self.decode(Model.self, from: data, at: Constants.resultPath, coder: coder)
        }
    }

    /// Inserts a record made of `fields` into a table and returns the response body, `{"result": {...}}`.
    ///
    /// A `sys_id` among the fields is kept as the new record's; otherwise the client assigns one.
    ///
    /// ```swift
    /// let data = try await service.createRecord(with: ["short_description": "Printer on fire", "urgency": 2],
    ///                                           in: "incident")
    /// let record: NowRecord = data.convertToRecord()
    /// ```
    ///
    /// - Returns: the JSON of the new record, as the instance sent it.
    /// - Throws: ``NowDataError``.
    public func createRecord(
        with fields: [FieldName: FieldValue], in tableName: String, writeOptions: FieldWriteOptions? = nil,
        configuration: FieldReadConfiguration? = nil
    ) async throws -> Data {
        try await Self.mappingErrors {
            let request = try prepareCreateRecord(
                fields, in: tableName, writeOptions: writeOptions,
                readConfiguration: configuration)
            return try Self.validated(try await send(request))
        }
    }

    /// ``createRecord(with:in:writeOptions:configuration:)`` for a dictionary of one value type, such as the
    /// `[String: String]` of `let fields = ["short_description": "test description"]`.
    public func createRecord<Value: FieldValueConvertible>(
        with fields: [FieldName: Value], in tableName: String, writeOptions: FieldWriteOptions? = nil,
        configuration: FieldReadConfiguration? = nil
    ) async throws -> Data {
        try await createRecord(
            with: fields.mapValues(\.fieldValue), in: tableName, writeOptions: writeOptions,
            configuration: configuration)
    }

    // MARK: - Delete

    /// Deletes the record of a model, identified by its sys_id.
    ///
    /// ```swift
    /// try await service.delete(user, from: "sys_user")
    /// ```
    ///
    /// - Throws: ``NowDataError/missingSysID`` before any request when the model has no sys_id, or another
    ///   ``NowDataError``.
    public func delete<Model: SysIdentifiableModel>(_ model: Model, from tableName: String) async throws {
        try await deleteRecord(sysId: model.sysId, from: tableName)
    }

    /// Deletes a record by sys_id.
    ///
    /// ```swift
    /// try await service.deleteRecord(sysId: sysId, from: "incident")
    /// ```
    ///
    /// - Throws: ``NowDataError``; `badResponse(statusCode: 404)` when there is no such record.
    public func deleteRecord(sysId: SysID, from tableName: String) async throws {
        try await Self.mappingErrors {
            let request = try prepareDelete(sysId: sysId, from: tableName)
            _ = try await send(request)
        }
    }

    // MARK: - Read

    /// Fetches one decodable model by sys_id, or every record the configuration selects as an array.
    ///
    /// ```swift
    /// let users = try await service.model([User].self, from: "sys_user")
    /// let user = try await service.model(User.self, with: "5137153cc611227c000bbd1bd8cd2005", from: "sys_user")
    /// ```
    ///
    /// For large result sets, use ``paginator(from:path:coder:configuration:)``.
    ///
    /// - Parameters:
    ///   - type: the type to decode, such as `User.self` with a sys_id or `[User].self` without.
    ///   - sysId: the record to fetch; nil fetches the records the configuration selects.
    ///   - tableName: the table, such as `incident`.
    ///   - path: the dot-separated path of the value to decode in the response.
    ///   - coder: decodes the response.
    ///   - configuration: the filter, limit and fields (with a sys_id, only the read configuration applies).
    /// - Throws: ``NowDataError``; `cannotDecodeModel` with the coding path when the JSON does not fit.
    public func model<Model: Decodable>(
        _ type: Model.Type = Model.self, with sysId: SysID? = nil, from tableName: String,
        path: String = Constants.resultPath, coder: Coder = .default, configuration: FetchConfiguration? = nil
    ) async throws -> Model {
        try await Self.mappingErrors {
            let request = try prepareModel(with: sysId, from: tableName, configuration: configuration)
            let data = try await send(request)
            return try Self.decode(type, from: data, at: path, coder: coder)
        }
    }

    /// Fetches one record by sys_id and returns the response body, `{"result": {...}}`.
    ///
    /// ```swift
    /// let data = try await service.record(with: sysId, from: "incident",
    ///                                     configuration: FieldReadConfiguration(includeFields: ["number"]))
    /// ```
    ///
    /// - Throws: ``NowDataError``.
    public func record(with sysId: SysID, from tableName: String, configuration: FieldReadConfiguration? = nil)
        async throws -> Data
    {
        try await Self.mappingErrors {
            let request = try prepareRecord(with: sysId, from: tableName, configuration: configuration)
            return try Self.validated(try await send(request))
        }
    }

    /// Fetches the records the configuration selects and returns the response body, `{"result": [...]}`.
    ///
    /// ```swift
    /// let data = try await service.records(from: "incident",
    ///                                      configuration: FetchConfiguration(Filter(query: "active=true"), 50, nil))
    /// ```
    ///
    /// For large result sets, use ``paginator(from:configuration:)``.
    ///
    /// - Throws: ``NowDataError``.
    public func records(from tableName: String, configuration: FetchConfiguration? = nil) async throws -> Data {
        try await Self.mappingErrors {
            let request = try prepareRecords(from: tableName, configuration: configuration)
            return try Self.validated(try await send(request))
        }
    }

    // MARK: - Paginate

    /// A paginator over the raw pages (`{"result": [...]}`) of the records the configuration selects,
    /// `configuration.limit` records a page (20 by default).
    ///
    /// ```swift
    /// let paginator = service.paginator(from: "incident")
    /// for try await page in paginator { handle(page) }
    /// ```
    public func paginator(from tableName: String, configuration: FetchConfiguration? = nil) -> Paginator<Data> {
        Paginator(pipeline: pipeline, tableName: tableName, configuration: configuration) { data in data }
    }

    /// A paginator of raw pages whose first page starts `offset` records in (`sysparm_offset`), such as the rest
    /// of a list fetched again in smaller pages after a page met the instance's transaction quota.
    public func paginator(from tableName: String, configuration: FetchConfiguration?, offset: Int) -> Paginator<Data> {
        Paginator(pipeline: pipeline, tableName: tableName, configuration: configuration, offset: offset) { $0 }
    }

    /// A paginator over pages decoded at `path`, such as `Paginator<[User]>`.
    ///
    /// ```swift
    /// let paginator: Paginator<[User]> = service.paginator(from: "sys_user")
    /// while let users = try await paginator.next() { print(users.count) }
    /// ```
    public func paginator<Model: Decodable & SendableMetatype>(
        from tableName: String, path: String = Constants.resultPath, coder: Coder = .default,
        configuration: FetchConfiguration? = nil
    ) -> Paginator<Model> {
        Paginator(pipeline: pipeline, tableName: tableName, configuration: configuration) { data in
            try Self.decode(Model.self, from: data, at: path, coder: coder)
        }
    }

    // MARK: - Update

    /// Updates the record of a model with the model's fields and returns it as the instance stored it.
    ///
    /// The record is the one of the model's sys_id; `sys_` fields are never sent (the instance maintains
    /// them). The update is a `PATCH`: fields the model does not encode keep their values.
    ///
    /// ```swift
    /// let updated = try await service.update(User(sysId: sysId, name: "abel"), in: "sys_user")
    /// ```
    ///
    /// - Throws: ``NowDataError/missingSysID`` before any request when the model has no sys_id, or another
    ///   ``NowDataError``.
    public func update<Model: SysIdentifiableModel>(
        _ model: Model, in tableName: String, coder: Coder = .default, writeOptions: FieldWriteOptions? = nil,
        configuration: FetchConfiguration? = nil
    ) async throws -> Model {
        try await Self.mappingErrors {
            let request = try prepareUpdate(
                model, in: tableName, coder: coder, writeOptions: writeOptions,
                readConfiguration: configuration?.readConfiguration)
            let data = try await send(request)
            return try Self.decode(Model.self, from: data, at: Constants.resultPath, coder: coder)
        }
    }

    /// Updates the given fields of a record and returns the response body, `{"result": {...}}`.
    ///
    /// `sys_` fields are left out of the request; the other fields keep their values.
    ///
    /// ```swift
    /// let data = try await service.updateRecord(sysId: sysId, in: "incident", with: ["state": 2])
    /// ```
    ///
    /// - Throws: ``NowDataError``; `missingSysID` before any request for an empty sys_id.
    public func updateRecord(
        sysId: SysID, in tableName: String, with fields: [FieldName: FieldValue],
        writeOptions: FieldWriteOptions? = nil, configuration: FieldReadConfiguration? = nil
    ) async throws -> Data {
        try await Self.mappingErrors {
            let request = try prepareUpdateRecord(
                sysId: sysId, in: tableName, with: fields,
                writeOptions: writeOptions, readConfiguration: configuration)
            return try Self.validated(try await send(request))
        }
    }

    /// ``updateRecord(sysId:in:with:writeOptions:configuration:)`` for a dictionary of one value type.
    public func updateRecord<Value: FieldValueConvertible>(
        sysId: SysID, in tableName: String, with fields: [FieldName: Value],
        writeOptions: FieldWriteOptions? = nil, configuration: FieldReadConfiguration? = nil
    ) async throws -> Data {
        try await updateRecord(
            sysId: sysId, in: tableName, with: fields.mapValues(\.fieldValue), writeOptions: writeOptions,
            configuration: configuration)
    }
}
