import NowData

extension NowDataError {
    /// Whether the error is the platform's transaction quota answer (500 `Transaction cancelled: maximum execution
    /// time exceeded`).
    var isTransactionCancelled: Bool {
        guard case .badResponse(let status) = self else { return false }
        return status.code == 500 && status.message?.hasPrefix("Transaction cancelled") == true
    }
}
