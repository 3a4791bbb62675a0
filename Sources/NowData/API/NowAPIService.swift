import Foundation

/// Requests to any REST API of an instance: scripted REST APIs and other endpoints beside the Table API, such as
/// `/api/now/stats/incident` or `/api/now/account`, through the same pipeline as ``NowTableService``
/// (authentication, retries, errors as ``NowDataError``).
///
/// ```swift
/// struct Endpoint: NowAPIEndpoint {
///     let httpMethod: HTTPMethod
///     let relativePath: String
///     let requiresAuthentication: Bool
/// }
/// let apiService = NowAPIService(configuration: NowServiceConfiguration(
///     instanceURL: URL(string: "https://example.service-now.com")!,
///     authentication: .basic(user: "admin", password: secret)))
/// let endpoint = Endpoint(httpMethod: .get, relativePath: "/api/now/stats/incident", requiresAuthentication: true)
/// let response = try await apiService.data(for: endpoint, queryItems: ["sysparm_count": "true"])
/// print(String(decoding: response.data, as: UTF8.self))
/// ```
///
/// A status other than 2xx throws ``NowDataError/badResponse(statusCode:)`` with the server's error message. GET,
/// HEAD, PUT, PATCH, DELETE and OPTIONS are retried as ``RetryPolicy`` says; a POST is sent once, since an API may
/// not be safe to call twice.
public final class NowAPIService: Sendable {
    /// The configuration the service was created with.
    public let configuration: NowServiceConfiguration
    /// The core services associated with this service, if any.
    public let coreServiceProvider: NowCoreServiceProviding?
    let pipeline: RequestPipeline

    /// Creates an API service.
    ///
    /// - Parameters:
    ///   - configuration: the instance and how to reach it.
    ///   - coreServiceProvider: core services to associate; their authentication is used when the
    ///     configuration's is ``NowAuthentication/none``.
    public init(configuration: NowServiceConfiguration, coreServiceProvider: NowCoreServiceProviding? = nil) {
        self.configuration = configuration
        self.coreServiceProvider = coreServiceProvider
        pipeline = RequestPipeline(configuration: configuration, coreServiceProvider: coreServiceProvider)
    }

    /// An API service that sends through `tableService`'s pipeline: the same credentials (and OAuth token), the
    /// same transport and the same shared pause after a 429.
    package init(sharing tableService: NowTableService) {
        configuration = tableService.configuration
        coreServiceProvider = tableService.coreServiceProvider
        pipeline = tableService.pipeline
    }

    /// Requests data from an endpoint of the instance.
    ///
    /// ```swift
    /// let response = try await apiService.data(for: endpoint, queryItems: queryItems, httpHeaders: httpHeaders, body: body)
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: the method, path and whether to authenticate.
    ///   - queryItems: query parameters (sent sorted by name).
    ///   - httpHeaders: request headers; `Accept` is `application/json` unless given, as is the `Content-Type` of a
    ///     body.
    ///   - body: the request body.
    /// - Returns: the body, status and headers of a 2xx answer.
    /// - Throws: ``NowDataError``.
    public func data(
        for endpoint: NowAPIEndpoint, queryItems: [String: String]? = nil, httpHeaders: [String: String]? = nil,
        body: Data? = nil
    ) async throws -> DataResponse {
        let request = Self.request(
            method: endpoint.httpMethod.name, path: endpoint.relativePath,
            queryItems: (queryItems ?? [:]).sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) },
            headers: HTTPHeaders((httpHeaders ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }), body: body)
        let response = try await send(request, authenticated: endpoint.requiresAuthentication, anyStatus: false)
        return DataResponse(data: response.body, statusCode: response.statusCode, headers: response.headers)
    }

    /// ``data(for:queryItems:httpHeaders:body:)`` with a completion handler, called once on a task of Swift's
    /// cooperative thread pool.
    ///
    /// ```swift
    /// apiService.data(for: endpoint, queryItems: ["name": "abel"], httpHeaders: httpHeaders, body: body) { result in
    ///     switch result {
    ///     case .success(let response): print(response.data)
    ///     case .failure(let error): print(error)
    ///     }
    /// }
    /// ```
    public func data(
        for endpoint: NowAPIEndpoint, queryItems: [String: String]? = nil, httpHeaders: [String: String]? = nil,
        body: Data? = nil, completion: @escaping @Sendable (Result<DataResponse, NowDataError>) -> Void
    ) {
        RequestPipeline.complete(completion) { [self] in
            try await data(for: endpoint, queryItems: queryItems, httpHeaders: httpHeaders, body: body)
        }
    }

    /// Sends `method path` with the query items, headers and body as given, and returns the answer whatever its
    /// status (after the retries of a retryable one): for callers that check the status themselves.
    package func response(
        method: String, path: String, queryItems: [URLQueryItem], headers: HTTPHeaders, body: Data?
    ) async throws -> NowHTTPResponse {
        let request = Self.request(method: method, path: path, queryItems: queryItems, headers: headers, body: body)
        return try await send(request, authenticated: true, anyStatus: true)
    }

    private func send(_ request: NowHTTPRequest, authenticated: Bool, anyStatus: Bool) async throws
        -> NowHTTPResponse
    {
        do {
            let mode: RequestPipeline.Mode = request.method == "POST" ? .once : .idempotent
            return try await pipeline.send(request, mode: mode, authenticated: authenticated, anyStatus: anyStatus)
        } catch {
            throw RequestPipeline.networkError(error)
        }
    }

    /// The request of an endpoint: the path with a leading `/`, a JSON `Accept` unless given.
    private static func request(
        method: String, path: String, queryItems: [URLQueryItem], headers: HTTPHeaders, body: Data?
    ) -> NowHTTPRequest {
        NowHTTPRequest(
            method: method.uppercased(), path: path.hasPrefix("/") ? path : "/" + path, queryItems: queryItems,
            headers: headers, body: body)
    }
}

/// The iOS SDK's spelling of the service in `makeApiService(instanceUrl:path:completion:)`.
public typealias NowApiService = NowAPIService

/// Creates an API service for the instance at `instanceUrl` with the SDK's configuration (see
/// ``NowSDK/configure(authentication:transport:retryPolicy:allowsInsecureHTTP:)``), as the iOS SDK's
/// `NowData.makeApiService` does; `path` is the API the service is meant for (such as `/api/now/sg`), kept for the
/// caller: every request names its endpoint's whole path.
///
/// ```swift
/// NowData.makeApiService(instanceUrl: instanceURL, path: "/api/now/sg") { result in
///     if case .success(let service) = result { apiService = service }
/// }
/// ```
public func makeApiService(
    instanceUrl: URL, path: String, completion: @escaping @Sendable (Result<NowApiService, NowServiceError>) -> Void
) {
    guard let core = NowSDK.core() else { return completion(.failure(.sdkNotConfigured)) }
    guard let configuration = NowSDK.makeServiceConfiguration(for: instanceUrl) else {
        return completion(.failure(.serviceConfigurationInvalid))
    }
    completion(.success(NowAPIService(configuration: configuration, coreServiceProvider: core)))
}
