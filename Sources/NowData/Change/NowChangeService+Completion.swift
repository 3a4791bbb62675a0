/// The completion-handler forms of ``NowChangeService``: each calls `completion` once, on the cooperative thread
/// pool.
extension NowChangeService {
    /// A completion for one change record.
    public typealias RecordCompletion = @Sendable (Result<NowRecord, NowDataError>) -> Void
    /// A completion for a list of change records.
    public typealias RecordsCompletion = @Sendable (Result<[NowRecord], NowDataError>) -> Void

    /// ``createChange(model:fields:)`` with a completion handler.
    public func createChange(
        model: String? = nil, fields: [FieldName: FieldValue] = [:], completion: @escaping RecordCompletion
    ) {
        Task { completion(await NowDataError.result { try await self.createChange(model: model, fields: fields) }) }
    }

    /// ``createStandardChange(template:fields:)`` with a completion handler.
    public func createStandardChange(
        template: SysID, fields: [FieldName: FieldValue] = [:], completion: @escaping RecordCompletion
    ) {
        Task {
            completion(await NowDataError.result { try await self.createStandardChange(template: template, fields: fields) })
        }
    }

    /// ``change(sysId:)`` with a completion handler.
    public func change(sysId: SysID, completion: @escaping RecordCompletion) {
        Task { completion(await NowDataError.result { try await self.change(sysId: sysId) }) }
    }

    /// ``changes(query:limit:offset:)`` with a completion handler.
    public func changes(
        query: String? = nil, limit: Int? = nil, offset: Int? = nil, completion: @escaping RecordsCompletion
    ) {
        Task {
            completion(await NowDataError.result { try await self.changes(query: query, limit: limit, offset: offset) })
        }
    }

    /// ``updateChange(sysId:fields:)`` with a completion handler.
    public func updateChange(
        sysId: SysID, fields: [FieldName: FieldValue], completion: @escaping RecordCompletion
    ) {
        Task { completion(await NowDataError.result { try await self.updateChange(sysId: sysId, fields: fields) }) }
    }

    /// ``deleteChange(sysId:)`` with a completion handler.
    public func deleteChange(sysId: SysID, completion: @escaping RecordCompletion) {
        Task { completion(await NowDataError.result { try await self.deleteChange(sysId: sysId) }) }
    }

    /// ``tasks(ofChange:)`` with a completion handler.
    public func tasks(ofChange sysId: SysID, completion: @escaping RecordsCompletion) {
        Task { completion(await NowDataError.result { try await self.tasks(ofChange: sysId) }) }
    }

    /// ``createTask(ofChange:fields:)`` with a completion handler.
    public func createTask(
        ofChange sysId: SysID, fields: [FieldName: FieldValue] = [:], completion: @escaping RecordCompletion
    ) {
        Task { completion(await NowDataError.result { try await self.createTask(ofChange: sysId, fields: fields) }) }
    }

    /// ``updateTask(ofChange:taskSysId:fields:)`` with a completion handler.
    public func updateTask(
        ofChange sysId: SysID, taskSysId: SysID, fields: [FieldName: FieldValue],
        completion: @escaping RecordCompletion
    ) {
        Task {
            completion(
                await NowDataError.result {
                    try await self.updateTask(ofChange: sysId, taskSysId: taskSysId, fields: fields)
                })
        }
    }

    /// ``changeModels(query:)`` with a completion handler.
    public func changeModels(query: String? = nil, completion: @escaping RecordsCompletion) {
        Task { completion(await NowDataError.result { try await self.changeModels(query: query) }) }
    }

    /// ``standardChangeTemplates(query:)`` with a completion handler.
    public func standardChangeTemplates(query: String? = nil, completion: @escaping RecordsCompletion) {
        Task { completion(await NowDataError.result { try await self.standardChangeTemplates(query: query) }) }
    }

    /// ``setApproval(ofChange:state:comments:)`` with a completion handler.
    public func setApproval(
        ofChange sysId: SysID, state: String, comments: String? = nil, completion: @escaping RecordCompletion
    ) {
        Task {
            completion(
                await NowDataError.result { try await self.setApproval(ofChange: sysId, state: state, comments: comments) })
        }
    }

    /// ``assessRisk(ofChange:)`` with a completion handler.
    public func assessRisk(ofChange sysId: SysID, completion: @escaping RecordCompletion) {
        Task { completion(await NowDataError.result { try await self.assessRisk(ofChange: sysId) }) }
    }

    /// ``availableSlots(ofChange:)`` with a completion handler.
    public func availableSlots(
        ofChange sysId: SysID, completion: @escaping @Sendable (Result<[NowChangeSlot], NowDataError>) -> Void
    ) {
        Task { completion(await NowDataError.result { try await self.availableSlots(ofChange: sysId) }) }
    }

    /// ``availableSlots(forConfigurationItem:durationInSeconds:plannedStart:)`` with a completion handler.
    public func availableSlots(
        forConfigurationItem sysId: SysID, durationInSeconds: Int, plannedStart: String? = nil,
        completion: @escaping @Sendable (Result<[NowChangeSlot], NowDataError>) -> Void
    ) {
        Task {
            completion(
                await NowDataError.result {
                    try await self.availableSlots(
                        forConfigurationItem: sysId, durationInSeconds: durationInSeconds, plannedStart: plannedStart)
                })
        }
    }
}
