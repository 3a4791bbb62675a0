/// The address of the client whose request is being answered, as the HTTP listener saw its connection: bound by
/// the listener around each request, so that every part of the answer (a batch's sub-requests, the web views)
/// sees it and no header a client sends can change it. nil in process (``LocalInstance/transport``).
enum ClientAddress {
    @TaskLocal static var current: String?
}
