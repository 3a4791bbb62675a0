import Foundation

/// Reads job files: YAML through libyaml, then the job model, with every problem reported at once.
///
/// ```swift
/// do {
///     let job = try JobFile.load(path: "workflows/incident-lifecycle.yaml")
/// } catch {
///     print(error)   // workflows/incident-lifecycle.yaml:12:5: error: unknown key 'tabel' in query; did you mean 'table'?
/// }
/// ```
public enum JobFile {
    /// Reads and checks the job file at `path`.
    ///
    /// The file's text is let go once its YAML tree is read, before the job is built from the tree.
    public static func load(path: String) throws(JobFileError) -> Job {
        try load(path: path, includedBy: [])
    }

    /// Reads and checks the job file at `path`, included by the files of `chain` (outermost first).
    static func load(path: String, includedBy chain: [String]) throws(JobFileError) -> Job {
        let root = try root(of: try text(at: path), file: path)
        return try job(from: root, file: path, includedBy: chain)
    }

    /// Reads and checks a job from its text; `file` names it in diagnostics, and the files it includes are read
    /// relative to it.
    public static func parse(_ text: String, file: String) throws(JobFileError) -> Job {
        try job(from: try root(of: text, file: file), file: file)
    }

    /// The text of the file at `path` (without a leading byte order mark); why it cannot be read as a diagnostic.
    ///
    /// A regular file is read straight into the string's storage and its UTF-8 checked there: a large job file is in
    /// memory once, not also as `Data`.
    static func text(at path: String) throws(JobFileError) -> String {
        let text: String?
        if #available(macOS 26, *), let read = try readRegularFile(at: path) {
            text = read
        } else {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw unopenable(path)
            }
            text = String(data: data, encoding: .utf8)
        }
        guard let text else { throw failure(path, "the file is not UTF-8 text") }
        return text
    }

    /// A diagnostic about the file at `path` as a whole.
    private static func failure(_ path: String, _ message: String) -> JobFileError {
        JobFileError(diagnostics: [Diagnostic(file: path, line: 0, column: 0, message: message)])
    }

    /// Why the file at `path` cannot be opened: there is none, or it cannot be read.
    private static func unopenable(_ path: String) -> JobFileError {
        failure(path, FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file")
    }

    /// The text of the regular file at `path`, as `String(data:encoding: .utf8)` reads it (a leading byte order mark
    /// dropped; nil when the bytes are not UTF-8); nil too for another kind of file (a pipe, a device), which is
    /// read as `Data`.
    @available(macOS 26, *)
    private static func readRegularFile(at path: String) throws(JobFileError) -> String?? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw unopenable(path) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var readFailed = false
        var valid = true
        let text = String(unsafeUninitializedCapacity: max(Int(status.st_size), 1)) { buffer in
            var count = 0
            while count < buffer.count {
                let got = read(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
                if got < 0, errno == EINTR { continue }
                guard got > 0 else {
                    readFailed = got < 0
                    break
                }
                count += got
            }
            valid = (try? UTF8Span(validating: UnsafeBufferPointer(rebasing: buffer[..<count]).span)) != nil
            return valid ? count : 0
        }
        if readFailed { throw failure(path, "cannot read the file") }
        guard valid else { return .some(nil) }
        // U+FEFF is a grapheme of its own.
        return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    }

    /// The YAML tree of `text` (nil for an empty document); libyaml's error as a diagnostic in `file`.
    static func root(of text: String, file: String) throws(JobFileError) -> YAMLNode? {
        do {
            return try YAMLParser.parse(text)
        } catch {
            throw JobFileError(diagnostics: [
                Diagnostic(
                    file: file, line: error.mark.line, column: error.mark.column, message: error.message,
                    excerpt: Diagnostic.excerpt(of: text, line: error.mark.line, column: error.mark.column))
            ])
        }
    }

    /// The checked job of a file's YAML tree.
    static func job(from root: YAMLNode?, file: String, includedBy chain: [String] = []) throws(JobFileError) -> Job {
        let builder = JobBuilder(file: file)
        builder.includeChain = chain
        guard var job = builder.build(root) else {
            throw JobFileError(diagnostics: builder.sortedDiagnostics)
        }
        job.names = NameUse.uses(in: root).map { use in
            var use = use
            use.file = file
            return use
        } + builder.includedNames
        job.warnings = Diagnostic.inFileOrder(builder.warnings, of: file)
        return job
    }

    /// The absolute form of a path, to tell whether two paths name the same file.
    static func identity(of path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
