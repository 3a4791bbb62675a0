import Foundation
import NowData

extension JobBuilder {
    /// `auth.oauth_jwt`: the client, the key (`private_key_file` or `private_key`, exactly one; a file written as
    /// a plain path read and checked now), its `kid` and the `user`.
    func oauthJWT(_ node: YAMLNode) -> JobAuthentication? {
        let context = "auth.oauth_jwt"
        guard let fields = mapping(node, context) else { return nil }
        checkKeys(fields, of: JobSchema.authOAuthJWT)
        let clientID = requiredTemplate(fields, "client_id", in: context, at: node.mark)
        let clientSecret = requiredTemplate(fields, "client_secret", in: context, at: node.mark)
        let privateKey = privateKey(fields, at: node.mark)
        let kid: Template?
        if let kidNode = value(fields, "kid") {
            kid = templateText(kidNode, "\(context).kid")
        } else {
            error(at: node.mark, "\(context) needs kid: (the key id of the application's JWT verifier map)")
            kid = nil
        }
        let user = requiredTemplate(fields, "user", in: context, at: node.mark)
        guard let clientID, let clientSecret, let privateKey, let kid, let user else { return nil }
        return .oauthJWT(clientID: clientID, clientSecret: clientSecret, privateKey: privateKey, kid: kid, user: user)
    }

    /// `private_key_file:` or `private_key:`, exactly one.
    private func privateKey(_ fields: [YAMLNode.Pair], at mark: YAMLMark) -> JobPrivateKey? {
        let fileNode = value(fields, "private_key_file")
        let textNode = value(fields, "private_key")
        if fileNode != nil, let textNode {
            error(at: textNode.mark, "auth.oauth_jwt takes private_key_file: or private_key:, not both")
            return nil
        }
        func location(_ node: YAMLNode) -> String { "\(file):\(node.mark.line):\(node.mark.column)" }
        if let fileNode {
            guard let path = templateText(fileNode, "auth.oauth_jwt.private_key_file") else { return nil }
            let directory = (file as NSString).deletingLastPathComponent
            if let literal = path.literal {
                do {
                    _ = try JobPrivateKey.read(literal, in: directory)
                } catch {
                    self.error(at: fileNode.mark, "auth.oauth_jwt.private_key_file: \(error.message)")
                    return nil
                }
            }
            return JobPrivateKey(source: .file(path, directory: directory), location: location(fileNode))
        }
        if let textNode {
            guard let text = templateText(textNode, "auth.oauth_jwt.private_key") else { return nil }
            if let literal = text.literal, let problem = RS256Signature.problem(ofPrivateKeyPEM: literal) {
                error(at: textNode.mark, "auth.oauth_jwt.private_key: the text given \(problem)")
                return nil
            }
            return JobPrivateKey(source: .text(text), location: location(textNode))
        }
        error(
            at: mark,
            "auth.oauth_jwt needs private_key_file: (a PEM file, relative to this file) or private_key: (the PEM text, "
                + "as ${env.NAME})")
        return nil
    }
}
