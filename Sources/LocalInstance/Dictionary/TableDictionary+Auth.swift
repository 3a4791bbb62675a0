extension TableDictionary {
    /// `oauth_entity`: the OAuth applications whose `client_id` and `client_secret` `/oauth_token.do` accepts;
    /// `user` is the user a `client_credentials` token acts as. Only `admin` reads or writes them.
    static let oauthEntity = TableDefinition(
        name: "oauth_entity", label: "Application Registry", application: "System OAuth", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("client_id", label: "Client ID"),
            FieldDefinition("client_secret", isPassword: true),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("user", .reference(table: "sys_user"), label: "OAuth Application User"),
            FieldDefinition("redirect_url"),
        ], rules: TableRules(readRole: "admin", writeRole: "admin"))

    /// `sys_api_key`: the REST API keys a client sends as `x-sn-apikey`, each acting as its `user`. Only `admin`
    /// reads or writes them.
    static let sysAPIKey = TableDefinition(
        name: "sys_api_key", label: "REST API Key", application: "System Web Services", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("token", isPassword: true),
            FieldDefinition("user", .reference(table: "sys_user")),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("expires", .dateTime, label: "Expiry"),
        ], rules: TableRules(readRole: "admin", writeRole: "admin"))

    /// `sys_user_certificate`: the client certificates that log in as their `user` over HTTPS (`nowflow serve
    /// --tls-client-ca`), each named by the SHA-256 fingerprint of the certificate (hex, with or without colons, any
    /// letter case), as the platform's certificate-based authentication maps a certificate to a user. Only `admin`
    /// reads or writes them.
    static let sysUserCertificate = TableDefinition(
        name: "sys_user_certificate", label: "User Certificate", application: "System Security", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("fingerprint", label: "SHA-256 Fingerprint"),
            FieldDefinition("user", .reference(table: "sys_user")),
            FieldDefinition("active", .boolean, defaultValue: "true"),
            FieldDefinition("expires", .dateTime, label: "Expiry"),
        ], rules: TableRules(readRole: "admin", writeRole: "admin"))
}

extension TableDictionary {
    /// `sys_certificate` (X.509 Certificates): certificates in PEM, such as the one whose key signs a JWT bearer
    /// assertion (`type` `trust_store`). `pem_certificate` may hold a bare public key (`BEGIN PUBLIC KEY`) too.
    /// Only `admin` reads or writes them.
    static let sysCertificate = TableDefinition(
        name: "sys_certificate", label: "X.509 Certificate", application: "System Definition", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("short_description"),
            FieldDefinition(
                "format", .choice, choices: [FieldChoice("pem", "PEM"), FieldChoice("jks", "Java Key Store")],
                defaultValue: "pem"),
            FieldDefinition(
                "type", .choice,
                choices: [
                    FieldChoice("trust_store", "Trust Store Cert"), FieldChoice("client_cert", "Client Cert"),
                    FieldChoice("ca_cert", "CA Cert"),
                ], defaultValue: "trust_store"),
            FieldDefinition("pem_certificate", label: "PEM Certificate"),
            FieldDefinition("active", .boolean, defaultValue: "true"),
        ], rules: TableRules(readRole: "admin", writeRole: "admin"))

    /// `oauth_jwt` ("OAuth JWT API endpoint for external clients"): an OAuth application that takes the JWT bearer
    /// grant. It extends `oauth_entity` (its `client_id` and `client_secret` authenticate the client); `user_field`
    /// names the `sys_user` field the assertion's `sub` is matched against, `clock_skew` the seconds `exp` and
    /// `nbf` may be off by, and `enable_jti_verification` makes each assertion single-use (by its `jti`).
    static let oauthJWT = TableDefinition(
        name: "oauth_jwt", label: "OAuth JWT API endpoint for external clients", displayField: "name",
        extends: "oauth_entity",
        fields: oauthEntity.fields + [
            FieldDefinition("user_field", label: "User Field", defaultValue: "user_name"),
            FieldDefinition(
                "enable_jti_verification", .boolean, label: "Enable JTI Verification", defaultValue: "true"),
            FieldDefinition("clock_skew", .integer, label: "Clock Skew", defaultValue: "300"),
        ])

    /// `jwt_verifier_map` (JWT Verifier Maps): the keys that verify the assertions of an `oauth_jwt` application,
    /// each the certificate `sys_certificate` for the key id `kid` of the assertion's header.
    static let jwtVerifierMap = TableDefinition(
        name: "jwt_verifier_map", label: "Jwt Verifier Map", application: "System OAuth", displayField: "name",
        fields: [
            FieldDefinition("name"),
            FieldDefinition("oauth_jwt", .reference(table: "oauth_jwt"), label: "Oauth jwt"),
            FieldDefinition("kid", label: "Kid"),
            FieldDefinition("sys_certificate", .reference(table: "sys_certificate"), label: "Sys certificate"),
        ], rules: TableRules(readRole: "admin", writeRole: "admin"))
}
