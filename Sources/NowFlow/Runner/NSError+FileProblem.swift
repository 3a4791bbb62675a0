import Foundation

extension NSError {
    /// Why a file could not be read or written, in a few words: `no such file`, `permission denied`, or the
    /// system's words for the underlying POSIX error.
    var fileProblem: String {
        if let underlying = userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        switch code {
        case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
        case NSFileWriteFileExistsError: return "the file exists"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
        default: return localizedDescription
        }
    }
}
