import Foundation

extension NowTableService {
    /// A new sys_id of the kind the service gives every create: 32 lowercase hexadecimal digits.
    ///
    /// Pass one among `createRecord`'s fields to know a record's sys_id before the create is answered (for
    /// example to report a create whose answer never came).
    public static func makeSysID() -> SysID {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
