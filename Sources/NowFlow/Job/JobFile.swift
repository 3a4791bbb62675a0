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

    /// The text of the file at `path`; why it cannot be read as a diagnostic.
    static func text(at path: String) throws(JobFileError) -> String {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"
            throw JobFileError(diagnostics: [Diagnostic(file: path, line: 0, column: 0, message: reason)])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw JobFileError(diagnostics: [
                Diagnostic(file: path, line: 0, column: 0, message: "the file is not UTF-8 text")
            ])
        }
        return text
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
        return job
    }
}
