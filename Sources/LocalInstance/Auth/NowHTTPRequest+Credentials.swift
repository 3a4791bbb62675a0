import NowData

extension NowHTTPRequest {
    /// Whether the request carries credentials of its own (an `Authorization` or `x-sn-apikey` header), which then
    /// authenticate it rather than the user a transport or a batch acts as.
    var carriesCredentials: Bool {
        headers.value(named: "Authorization") != nil || headers.value(named: "x-sn-apikey") != nil
    }
}
