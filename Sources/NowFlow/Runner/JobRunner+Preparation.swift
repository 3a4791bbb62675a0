import NowData

extension JobRunner {
    /// What a job needs before its first step: the scope with the job's `vars` and the `--var`s, the masker of
    /// every secret, and the service with the job's (or the options') authentication.
    struct Preparation {
        var scope: Scope
        var masker: SecretMasker
        var service: NowTableService
        /// In a dry run, the transport of `service`, which keeps the writes instead of sending them.
        var dryRun: DryRunTransport?
        /// The answers NowData retried, for the progress lines.
        var retries: RetryTally
    }

    /// Evaluates the job's `vars` and `auth`; the failure's message is masked.
    func prepare() throws(StepFailure) -> Preparation {
        var scope = Scope(env: options.environment)
        var secrets = options.secrets
        var authentication = options.authentication
        do throws(EvaluationError) {
            for variable in job.vars {
                if let given = options.variables[variable.name] {
                    do {
                        scope.vars[variable.name] = try job.value(ofVariable: variable.name, argument: given)
                    } catch {
                        throw EvaluationError(message: error.description)
                    }
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
        let masker = SecretMasker(secrets + secretValues(in: scope))
        let base = options.transport ?? CurlTransport(instanceURL: options.instanceURL)
        let retries = RetryTally(wrapping: RequestLog(base: base, masker: masker, onEvent: options.onEvent))
        let transport: any NowTransport =
            options.interruption.map { InterruptibleTransport(base: retries, interruption: $0) } ?? retries
        let dryRun = options.dryRun ? DryRunTransport(wrapping: transport) : nil
        let configuration = NowServiceConfiguration(
            instanceURL: options.instanceURL, authentication: authentication, transport: dryRun ?? transport,
            retryPolicy: options.retryPolicy)
        return Preparation(
            scope: scope, masker: masker,
            service: NowTableService(configuration: configuration), dryRun: dryRun, retries: retries)
    }

    /// The values of the `env` and `vars` names listed under `secrets`: a list's or map's items one by one.
    func secretValues(in scope: Scope) -> [String] {
        job.secrets.flatMap { name in
            [scope.env[name]].compactMap { $0 } + (scope.vars[name].map(SecretMasker.texts(of:)) ?? [])
        }
    }
}
