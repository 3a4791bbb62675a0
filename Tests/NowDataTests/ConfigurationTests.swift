import Foundation
import NowData
import Testing

@Suite struct ConfigurationTests {
    func items(_ queryItems: [URLQueryItem]) -> [String] {
        queryItems.map { "\($0.name)=\($0.value ?? "")" }
    }

    /// The seed's example, pasted.
    @Test func seedWriteOptionsArrayLiteral() {
        let writeOptions: FieldWriteOptions = [.suppressAutoSysField, .treatInputValuesAsDisplayValues]
        #expect(items(writeOptions.queryItems) == ["sysparm_input_display_value=true", "sysparm_suppress_auto_sys_field=true"])
        #expect(items(FieldWriteOptions.suppressAutoSysField.queryItems) == ["sysparm_suppress_auto_sys_field=true"])
        #expect(items(FieldWriteOptions.treatInputValuesAsDisplayValues.queryItems) == ["sysparm_input_display_value=true"])
        #expect(items(FieldWriteOptions().queryItems) == [])
    }

    /// The seed's example, pasted.
    @Test func seedReadConfigurationWithIncludeFields() {
        let readConfiguration = FieldReadConfiguration(includeFields: ["number", "short_description"])
        #expect(items(readConfiguration.queryItems) == ["sysparm_fields=number,short_description"])
        #expect(readConfiguration.options == [])
    }

    static let readOptionCases: [(FieldReadConfiguration.Options, [String])] = [
        ([], []),
        (.actualValues, []),
        (.displayValues, ["sysparm_display_value=true"]),
        ([.actualValues, .displayValues], ["sysparm_display_value=all"]),
        (.excludeReferenceLink, ["sysparm_exclude_reference_link=true"]),
        ([.displayValues, .excludeReferenceLink], ["sysparm_display_value=true", "sysparm_exclude_reference_link=true"]),
    ]

    @Test(arguments: readOptionCases)
    func readOptions(options: FieldReadConfiguration.Options, expected: [String]) {
        #expect(items(FieldReadConfiguration(options: options).queryItems) == expected)
    }

    /// The seed's `fetchTableRecords` example, pasted: `FetchConfiguration(Filter(query: filterQuery), limit, readConfig)`.
    @Test func seedFetchConfigurationPositional() {
        let filterQuery = "active=true^priority<=2"
        let includeFields: [FieldName] = ["number", "short_description"]
        let readOptions: FieldReadConfiguration.Options = [.actualValues, .displayValues]
        let limit = 50
        let readConfig = FieldReadConfiguration(includeFields: includeFields, options: readOptions)
        let config = FetchConfiguration(Filter(query: filterQuery), limit, readConfig)
        #expect(
            items(config.queryItems) == [
                "sysparm_query=active=true^priority<=2", "sysparm_limit=50", "sysparm_fields=number,short_description",
                "sysparm_display_value=all",
            ])
    }

    @Test func fetchConfigurationLabelledAndDefaults() {
        #expect(items(FetchConfiguration().queryItems) == [])
        #expect(FetchConfiguration.defaultPageSize == 20)
        let filter = Filter(query: "ORDERBYDESCopened_at", queryCategory: "list")
        #expect(
            items(FetchConfiguration(filter: filter, limit: 10).queryItems) == [
                "sysparm_query=ORDERBYDESCopened_at", "sysparm_query_category=list", "sysparm_limit=10",
            ])
        #expect(items(Filter(query: "").queryItems) == [])
        #expect(
            items(FetchConfiguration(readConfiguration: FieldReadConfiguration(options: .excludeReferenceLink)).queryItems)
                == ["sysparm_exclude_reference_link=true"])
    }

    @Test func fieldValueLiteralsAndStrings() throws {
        let fields: [FieldName: FieldValue] = [
            "short_description": "Printer on fire", "urgency": 2, "business_stc": 2.5, "active": true,
            "opened_at": .date(Date(timeIntervalSince1970: 1_722_513_600)), "resolved_at": nil,
        ]
        #expect(fields.mapValues(\.stringValue) == [
            "short_description": "Printer on fire", "urgency": "2", "business_stc": "2.5", "active": "true",
            "opened_at": "2024-08-01 12:00:00", "resolved_at": "",
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(
            String(decoding: try encoder.encode(fields), as: UTF8.self)
                == #"{"active":"true","business_stc":"2.5","opened_at":"2024-08-01 12:00:00","resolved_at":"","short_description":"Printer on fire","urgency":"2"}"#
        )
        #expect(Constants.resultPath == "result")
    }

    @Test func instanceURLProblemSaysWhyAURLIsRefused() {
        func problem(_ url: String, allowsInsecureHTTP: Bool = false) -> String? {
            NowServiceConfiguration(
                instanceURL: URL(string: url)!, allowsInsecureHTTP: allowsInsecureHTTP
            ).instanceURLProblem
        }
        #expect(
            problem("http://admin:secret@example.com")
                == "plain http:// is refused for http://example.com because its host is not loopback; use https:// or set allowsInsecureHTTP")
        #expect(problem("ftp://example.com") == "the instance URL ftp://example.com has the scheme ftp; use https://")
        #expect(problem("example.com") == "the instance URL example.com has no scheme; use https://")
        #expect(problem("https:/path") == "the instance URL https:/path has no host")
        #expect(problem("http://example.com", allowsInsecureHTTP: true) == nil)
        #expect(problem("http://127.0.0.1:8080") == nil)
        #expect(problem("https://example.service-now.com") == nil)
    }
}
