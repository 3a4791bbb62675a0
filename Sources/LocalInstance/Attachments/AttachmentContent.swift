import Foundation
import Synchronization
import NowData

/// Where the bytes of attachments live: one file per attachment, named by its sys_id, in a directory beside the
/// database (`<database>.attachments/`), or in a private temporary directory, removed with the instance, for an
/// in-memory database. The rows of `sys_attachment` hold only the metadata, so that queries stay small whatever
/// the files weigh.
///
/// A file is written under a temporary name and renamed once its record is committed; SQLite triggers note every
/// deleted `sys_attachment` row (deleting a record deletes its attachments, whichever API deleted it) and
/// ``sweep(_:)`` removes their files.
final class AttachmentContent: Sendable {
    /// The directory of the files.
    let directory: URL
    private let ownsDirectory: Bool
    /// The multipart forms the HTTP listener received, until their requests' handlers take them.
    private let forms = Mutex<[String: AttachmentForm.Received]>([:])

    /// The bytes read or written at a time.
    static let chunkSize = 1 << 20

    /// The content directory of the database at `databasePath`, created when missing.
    init(databasePath: String) throws {
        if databasePath == ":memory:" {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "nowflow-attachments-" + UUID().uuidString, isDirectory: true)
            ownsDirectory = true
        } else {
            directory = URL(fileURLWithPath: databasePath + ".attachments", isDirectory: true)
            ownsDirectory = false
        }
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit {
        if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    /// The file of the attachment `sysID` (a sys_id is 32 hex digits, never a path).
    func file(_ sysID: String) -> URL {
        directory.appendingPathComponent(sysID, isDirectory: false)
    }

    /// Writes `bytes` under a temporary name for the attachment `sysID`, a chunk at a time, and returns the
    /// temporary file, the size and the SHA-256 hex digest.
    func stage(_ bytes: Data, for sysID: String) throws -> (file: URL, size: Int, hash: String) {
        let staged = directory.appendingPathComponent(sysID + ".part", isDirectory: false)
        guard Self.createPrivateFile(staged) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: staged)
        defer { try? handle.close() }
        var hasher = SHA256()
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let end = bytes.index(offset, offsetBy: Self.chunkSize, limitedBy: bytes.endIndex) ?? bytes.endIndex
            let chunk = bytes[offset..<end]
            hasher.update(chunk)
            try handle.write(contentsOf: chunk)
            offset = end
        }
        return (staged, bytes.count, hasher.finalizeHex())
    }

    /// Copies the file at `source` under a temporary name for the attachment `sysID`, a chunk at a time, and
    /// returns the temporary file, the size and the SHA-256 hex digest.
    func stage(copying source: URL, for sysID: String) throws -> (file: URL, size: Int, hash: String) {
        let staged = directory.appendingPathComponent(sysID + ".part", isDirectory: false)
        guard Self.createPrivateFile(staged) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        let output = try FileHandle(forWritingTo: staged)
        defer { try? output.close() }
        var hasher = SHA256()
        var size = 0
        while let chunk = try input.read(upToCount: Self.chunkSize), !chunk.isEmpty {
            hasher.update(chunk)
            try output.write(contentsOf: chunk)
            size += chunk.count
        }
        return (staged, size, hasher.finalizeHex())
    }

    /// Creates `file` empty, readable and writable by the owner alone (0600 whatever the umask), as every file in
    /// the directory is; false when it cannot be created.
    static func createPrivateFile(_ file: URL) -> Bool {
        FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
    }

    /// A new file in the directory for the HTTP listener to spool a raw upload's body to.
    func spoolFile() -> URL {
        directory.appendingPathComponent("upload-" + UUID().uuidString + ".spool", isDirectory: false)
    }

    /// Whether `file` is one of ``spoolFile()``'s.
    func isSpoolFile(_ file: URL) -> Bool {
        file.deletingLastPathComponent().standardizedFileURL.path == directory.standardizedFileURL.path
            && file.lastPathComponent.hasPrefix("upload-") && file.pathExtension == "spool"
    }

    /// Holds a form the HTTP listener received for the handler of its request; returns the name to take it by.
    func holdForm(_ form: AttachmentForm.Received) -> String {
        let token = UUID().uuidString
        forms.withLock { $0[token] = form }
        return token
    }

    /// The form held under `token`, no longer held; nil when there is none (taken already, or a name a client
    /// made up).
    func takeForm(_ token: String) -> AttachmentForm.Received? {
        forms.withLock { $0.removeValue(forKey: token) }
    }

    /// Takes a spooled body, whose digest the listener computed as it arrived, as the staged file of the
    /// attachment `sysID` (a rename: no byte is copied).
    func stage(spooled file: URL, digest: String, for sysID: String) throws -> (file: URL, size: Int, hash: String) {
        let staged = directory.appendingPathComponent(sysID + ".part", isDirectory: false)
        let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
        try FileManager.default.moveItem(at: file, to: staged)
        return (staged, size, digest)
    }

    /// Gives a staged file its final name.
    func commit(_ staged: URL, for sysID: String) throws {
        let final = file(sysID)
        try? FileManager.default.removeItem(at: final)
        try FileManager.default.moveItem(at: staged, to: final)
    }

    /// The SQL that creates the bookkeeping table and the triggers: for every table but `sys_attachment`,
    /// deleting a record deletes the attachments whose `table_sys_id` is its sys_id; deleting a `sys_attachment`
    /// row notes its sys_id for ``sweep(_:)``.
    static func schema(for dictionary: TableDictionary) -> String {
        var sql = """
            CREATE TABLE IF NOT EXISTS "nowflow_attachment_removed" ("sys_id" TEXT PRIMARY KEY);
            CREATE TRIGGER IF NOT EXISTS "sys_attachment_removed" AFTER DELETE ON "sys_attachment" BEGIN
              INSERT OR IGNORE INTO "nowflow_attachment_removed" ("sys_id") VALUES (OLD."sys_id");
            END;

            """
        for name in dictionary.tableNames where name != TableDictionary.sysAttachment.name {
            sql += """
                CREATE TRIGGER IF NOT EXISTS "\(name)_attachments" AFTER DELETE ON "\(name)" BEGIN
                  DELETE FROM "sys_attachment" WHERE "table_sys_id" = OLD."sys_id";
                END;

                """
        }
        return sql
    }

    /// Removes the files of the attachments deleted since the last sweep.
    func sweep(_ db: SQLiteConnection) throws {
        let removed = try db.query("SELECT \"sys_id\" FROM \"nowflow_attachment_removed\"")
        guard !removed.isEmpty else { return }
        for row in removed {
            if case .text(let sysID) = row.first { try? FileManager.default.removeItem(at: file(sysID)) }
        }
        try db.execute("DELETE FROM \"nowflow_attachment_removed\"")
    }
}
