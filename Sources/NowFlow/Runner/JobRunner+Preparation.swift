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
        /// The page of what changed the instance names, for the result.
        var changesPage: ChangesPageNote
    }

    /// Evaluates the job's `vars` and `auth`; the failure's message is masked.
    func prepare() throws(StepFailure) -> Preparation {
        var scope = Scope(env: options.environment)
        scope.dates = job.dates(timeZone: nil)
        var secrets = options.secrets
        var authentication = options.authentication
        do throws(EvaluationError) {
            var given: [String: JSONValue] = [:]
            do {
                for (name, value) in options.variableValues {
                    given[name] = try job.value(ofVariable: name, given: value, from: "--vars-file")
                }
                for (name, argument) in options.variables {
                    given[name] = try job.value(ofVariable: name, argument: argument)
                }
            } catch {
                throw EvaluationError(message: error.description)
            }
            try job.assignVariables(in: &scope, given: given)
            if let auth = job.auth {
                let resolved = try auth.resolve(in: scope)
                authentication = resolved.authentication
                secrets += resolved.secrets
            }
        } catch {
            throw StepFailure(SecretMasker(secrets + secretValues(in: scope))(error.message))
        }
        let masker = SecretMasker(secrets + secretValues(in: scope))
        let changesPage = ChangesPageNote(
            wrapping: options.transport ?? CurlTransport(instanceURL: options.instanceURL))
        let retries = RetryTally(wrapping: RequestLog(base: changesPage, masker: masker, onEvent: options.onEvent))
        let transport: any NowTransport =
            options.interruption.map { InterruptibleTransport(base: retries, interruption: $0) } ?? retries
        let dryRun = options.dryRun ? DryRunTransport(wrapping: transport) : nil
        var configuration = NowServiceConfiguration(
            instanceURL: options.instanceURL, authentication: authentication, transport: dryRun ?? transport,
            retryPolicy: options.retryPolicy)
        configuration.pacer = options.pacer ?? RequestPacer(rate: job.rate)
        return Preparation(
            scope: scope, masker: masker,
            service: NowTableService(configuration: configuration), dryRun: dryRun, retries: retries,
            changesPage: changesPage)
    }

    /// The values of the `env` and `vars` names listed under `secrets`: a list's or map's items one by one.
    func secretValues(in scope: Scope) -> [String] {
        job.secrets.flatMap { name in
            [scope.env[name]].compactMap { $0 } + (scope.variables[name].map { SecretMasker.texts(of: $0.json) } ?? [])
        }
    }
}
