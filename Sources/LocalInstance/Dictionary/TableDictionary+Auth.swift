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
