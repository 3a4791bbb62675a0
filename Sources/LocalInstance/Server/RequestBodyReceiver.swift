import NowData

/// A request body an ``HTTPListener`` hands over chunk by chunk as it arrives, instead of holding it or spooling
/// it to one file: the local instance's multipart uploads, taken apart into their attachment files on the way in
/// (``BodySpooling/receiver``). The listener calls it from the request's connection thread only.
public protocol RequestBodyReceiver: AnyObject {
    /// Takes the next chunk of the body (valid only during the call).
    func receive(_ chunk: UnsafeRawBufferPointer)

    /// The body has all arrived: adds to `request` what its handler needs to find what was received (as
    /// ``BodySpooling/receivedBodyHeader``), or returns the response to answer with instead (the body was refused).
    func finish(_ request: inout NowHTTPRequest) -> NowHTTPResponse?

    /// The request is over, answered or not (the client may have gone away mid-body): removes whatever the handler
    /// did not take.
    func discard()
}
