import Foundation
import Testing

@testable import NowFlow

/// What is derived from ``JobSchema``'s keys rather than listed beside it: completion after `name=` and the name
/// check (of a job file and of a step typed at the REPL). A key declared with a ``SchemaKey/Role`` or a boolean
/// type is completed and checked without being written anywhere else, so each test goes over every declared key:
/// a key listed by hand in one of those places, and missed there, fails it.
extension JobSchemaTests {
    /// Every key of every kind, with the kind's name (the common keys under `query`, where a short form takes them).
    static var everyKey: [(kind: String, key: SchemaKey)] {
        JobSchema.step.keys.map { ("query", $0) }
            + JobSchema.kinds.flatMap { kind in ((kind.parameters?.keys ?? []) + kind.stepKeys).map { (kind.name, $0) } }
    }

    @Test func everyKeyThatNamesFieldsTablesOrABooleanCompletesToThem() {
        let catalog = ReplCompleterTests.catalog
        let fields = catalog.fields(of: "incident").sorted()
        let displayValues = Set(JobSchema.kinds.compactMap { $0.parameters?.keys }.joined().filter {
            if case .displayValue = $0.type { true } else { false }
        }.map(\.name))
        var checked = 0
        for (kind, key) in Self.everyKey {
            let prefix = "query incident \(key.name)="
            let completed = ReplCompleter.completions(for: prefix, catalog: catalog)
            switch key.role {
            case .field, .fields:
                #expect(completed == fields, "\(kind).\(key.name)")
                #expect(ReplCompleter.ending(of: "number", prefix: prefix, catalog: catalog) == "", "\(kind).\(key.name)")
            case .table:
                #expect(completed == catalog.tables.sorted(), "\(kind).\(key.name)")
            default:
                // aggregate's display_value is a boolean, query's false, true or all: the name offers all three.
                guard key.isBoolean, !displayValues.contains(key.name) else { continue }
                #expect(completed == ["false", "true"], "\(kind).\(key.name)")
            }
            checked += 1
        }
        #expect(checked >= 20)
    }

    @Test func everyKeyThatNamesFieldsIsNameCheckedAndNoOther() throws {
        var checked = 0
        for kind in JobSchema.kinds {
            guard let parameters = kind.parameters, let table = parameters.keys.first(where: { $0.role == .table })
            else { continue }
            for key in parameters.keys where key.name != table.name {
                let value =
                    switch key.role {
                    case .field, nil: "u_one"
                    case .fields: "[u_one]"
                    case .fieldValues, .conditions: "{u_one: x}"
                    case .encodedQuery: "u_one=x"
                    case .table: "u_table"
                    }
                let node = try #require(try YAMLParser.parse("{\(table.name): incident, \(key.name): \(value)}"))
                let named = NameUse.uses(ofKind: kind.name, in: node).map(\.name)
                let expected =
                    switch key.role {
                    case .table: ["incident"]  // the first table key names the table
                    case nil: ["incident"]
                    default: ["incident", "u_one"]
                    }
                #expect(named == expected, "\(kind.name).\(key.name)")
                checked += 1
            }
        }
        #expect(checked >= 30)
    }

    @Test func aShortFormsWordsAreParametersOfItsKindTheFirstItsTableWhenItNeedsOne() {
        for kind in JobSchema.kinds {
            let parameters = kind.parameters?.names ?? []
            #expect(kind.words.allSatisfy(parameters.contains), "\(kind.name): \(kind.words)")
            // A kind that needs a table takes it as its first word (download's table is one way among two).
            if let table = kind.parameters?.keys.first(where: { $0.role == .table && $0.isRequired }), !kind.words.isEmpty {
                #expect(kind.words.first == table.name, "\(kind.name)")
            }
            #expect(kind.words.isEmpty == (kind.group == .other), "\(kind.name)")
        }
    }
}
