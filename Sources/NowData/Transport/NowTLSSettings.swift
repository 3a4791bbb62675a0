/// How the default transport (``CurlTransport``) checks the instance's certificate, and which certificate the
/// client proves itself with (mutual TLS).
///
/// ```swift
/// var configuration = NowServiceConfiguration(instanceURL: URL(string: "https://localhost:8443")!)
/// configuration.tls = NowTLSSettings(caFile: "/home/you/.nowflow/tls/ca.pem")
/// ```
public struct NowTLSSettings: Sendable, Hashable {
    /// A PEM file of the certificate authorities trusted instead of the system's (such as the `ca.pem` that
    /// `nowflow serve --tls` prints); nil: the system's.
    public var caFile: String?
    /// Whether the instance's certificate and name go unchecked. Anyone between the client and the instance can
    /// then read and change the traffic, credentials included: for a test instance only.
    public var insecure: Bool
    /// A PEM file with the client's certificate, for an instance that asks for one; nil: none.
    public var clientCertificateFile: String?
    /// The PEM file of the client certificate's private key (unencrypted); nil: it is in `clientCertificateFile`.
    public var clientKeyFile: String?

    /// Settings; the defaults check the instance against the system's authorities and present no certificate.
    public init(
        caFile: String? = nil, insecure: Bool = false, clientCertificateFile: String? = nil,
        clientKeyFile: String? = nil
    ) {
        self.caFile = caFile
        self.insecure = insecure
        self.clientCertificateFile = clientCertificateFile
        self.clientKeyFile = clientKeyFile
    }
}
