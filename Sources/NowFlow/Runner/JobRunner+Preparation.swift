import NowData

extension JobRunner {
    /// What a job needs before its first step: the scope with the job's `vars` and the `--var`s, the masker of
    /// every secret, and the service with the job's (or the options') authentication.
    struct Preparation {
        var scope: Scope
        var masker: SecretMasker
        var service: NowTableService
    }

    /// Evaluates the job's `vars` and `auth`; the failure's message is masked.
    func prepare() throws(StepFailure) -> Preparation {
        var scope = Scope(env: options.environment)
        var secrets = options.secrets
        var authentication = options.authentication
        do throws(EvaluationError) {
            for variable in job.vars {
                if let given = options.variables[variable.name] {
                    scope.vars[variable.name] = Self.value(ofArgument: given)
                } else {
                    scope.vars[variable.name] = try variable.value.evaluate(in: scope)
                }
            }
            if let auth = job.auth {
                let resolved = try auth.resolve(in: scope)
                authentication = resolved.authentication
                secrets += resolved.secrets
            }
        } catch {
            throw StepFailure(SecretMasker(secrets + secretValues(in: scope))(error.message))
        }
        let configuration = NowServiceConfiguration(
            instanceURL: options.instanceURL, authentication: authentication, transport: options.transport,
            retryPolicy: options.retryPolicy)
        return Preparation(
            scope: scope, masker: SecretMasker(secrets + secretValues(in: scope)),
            service: NowTableService(configuration: configuration))
    }

    /// The values of the `env` and `vars` names listed under `secrets`.
    func secretValues(in scope: Scope) -> [String] {
        job.secrets.flatMap { name in [scope.env[name], scope.vars[name]?.text].compactMap { $0 } }
    }
}
