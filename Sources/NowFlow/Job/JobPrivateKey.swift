import Foundation
import NowData

/// The private key of an `auth.oauth_jwt`: a PEM file (`private_key_file`, relative to the file that names it) or
/// the PEM text itself (`private_key`, usually `${env.NAME}`), with where the file names it, for its errors.
///
/// A key written without an expression is read and checked when the file is read; one that an expression gives,
/// when the run starts. Either way a problem is said of the key, never with its text.
struct JobPrivateKey: Sendable, Hashable {
    enum Source: Sendable, Hashable {
        /// `private_key_file`: the path, relative to `directory` (the directory of the file that names it).
        case file(Template, directory: String)
        /// `private_key`: the PEM text.
        case text(Template)
    }

    var source: Source
    /// `job.yaml:6:23`: where the key's value is written.
    var location: String

    /// The key's name in the file.
    var key: String {
        if case .file = source { "auth.oauth_jwt.private_key_file" } else { "auth.oauth_jwt.private_key" }
    }

    /// The PEM text of the key, read and checked.
    ///
    /// - Throws: an ``EvaluationError`` saying where the key is written and what is wrong with it: a path or text
    ///   that cannot be evaluated, a file that cannot be read, a text that is not an unencrypted RSA private key
    ///   of 2048 bits or more.
    func pem(in scope: Scope) throws(EvaluationError) -> String {
        do throws(EvaluationError) {
            switch source {
            case .file(let template, let directory):
                return try Self.read(try template.evaluate(in: scope).text, in: directory)
            case .text(let template):
                let text = try template.evaluate(in: scope).text
                if let problem = RS256Signature.problem(ofPrivateKeyPEM: text) {
                    throw EvaluationError(message: "the text given \(problem)")
                }
                return text
            }
        } catch {
            throw EvaluationError(message: "\(key) (\(location)): \(error.message)", isMissing: error.isMissing)
        }
    }

    /// The most bytes of a key file: an RSA key of 16384 bits in PEM, with its certificate, has fewer.
    static let maximumSize = 65_536

    /// The PEM text of the file at `given` (`~/` the home folder, a relative path under `directory`, itself under
    /// the current directory when relative).
    ///
    /// - Throws: an ``EvaluationError`` naming the file when it cannot be read or holds no key that signs.
    static func read(_ given: String, in directory: String) throws(EvaluationError) -> String {
        let expanded = given.hasPrefix("~/") ? NSString(string: given).expandingTildeInPath : given
        let base = directory.hasPrefix("/") ? directory : FileManager.default.currentDirectoryPath + "/" + directory
        let path = ((expanded.hasPrefix("/") ? expanded : base + "/" + expanded) as NSString).standardizingPath
        let named = path == given ? "'\(given)'" : "'\(given)' (\(path))"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw EvaluationError(message: "no such file \(named)")
        }
        guard !isDirectory.boolValue else { throw EvaluationError(message: "\(named) is a directory, not a file") }
        // Read only a regular file of a key's size: a device or a pipe (/dev/stdin) could block or never end.
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard attributes?[.type] as? FileAttributeType == .typeRegular else {
            throw EvaluationError(message: "\(named) is not a regular file")
        }
        if let size = attributes?[.size] as? Int, size > maximumSize {
            throw EvaluationError(message: "\(named) has \(size) bytes, more than a PEM key file (\(maximumSize))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EvaluationError(message: "cannot read \(named)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw EvaluationError(message: "the file \(named) is not text, as a PEM file is")
        }
        if let problem = RS256Signature.problem(ofPrivateKeyPEM: text) {
            throw EvaluationError(message: "the file \(named) \(problem)")
        }
        return text
    }

    /// The forms of the key's text to mask beside the text itself: each line of its base64 body long enough not
    /// to be a common word, and the body joined on one line (the key's DER in base64).
    static func maskedForms(of pem: String) -> [String] {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        let body = lines.filter { !$0.hasPrefix("-----") && !$0.contains(":") }
        return [pem.trimmingCharacters(in: .whitespacesAndNewlines), body.joined()]
            + body.filter { $0.count >= 16 }
    }
}
