import NowData

/// The job schema as a JSON Schema (draft-07), for editors: the YAML language server (VS Code's YAML extension,
/// and others) completes and checks a job file against it. `docs/job-file.schema.json` is this, written out.
extension JobSchema {
    /// The JSON Schema of a job file: every key of every mapping with its type, enumeration and description.
    static var jsonSchema: JSONValue {
        var root: JSONObject = [
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "nowflow job file",
            "description":
                "A nowflow job: steps run in order against a ServiceNow instance (docs/job-files.md). Generated from nowflow's job schema.",
        ]
        for (key, value) in object(job) { root[key] = value }
        root["definitions"] = ["step": stepDefinition]
        return .object(root)
    }

    /// The JSON Schema as a file holds it: indented by two spaces, with a final line break.
    static var jsonSchemaText: String {
        jsonSchema.jsonText(pretty: true) + "\n"
    }

    /// A step: the options every step has, and exactly one kind.
    private static var stepDefinition: JSONValue {
        var properties = JSONObject()
        for key in step.keys { properties[key.name] = property(key.type, key.summary) }
        for kind in kinds { properties[kind.name] = property(kind.type, kind.summary) }
        var dependencies = JSONObject()
        for kind in kinds where !kind.stepKeys.isEmpty {
            for key in kind.stepKeys { properties[key.name] = property(key.type, "\(kind.name): \(key.summary)") }
            for key in kind.stepKeys { dependencies[key.name] = [.string(kind.name)] }
            dependencies[kind.name] = .array(kind.stepKeys.filter(\.isRequired).map { .string($0.name) })
        }
        return [
            "type": "object",
            "description": .string("A step: one kind (\(StepKind.names.alternatives)) and the options every step has."),
            "properties": .object(properties),
            "additionalProperties": false,
            "oneOf": .array(kinds.map { ["required": [.string($0.name)]] }),
            "dependencies": .object(dependencies),
        ]
    }

    /// The schema of a key of `type`, described by `summary`.
    private static func property(_ type: SchemaType, _ summary: String) -> JSONValue {
        var schema = JSONObject()
        schema["description"] = .string(summary)
        for (key, value) in self.schema(type) { schema[key] = value }
        return .object(schema)
    }

    /// An object of `mapping`'s keys, none other.
    private static func object(_ mapping: SchemaMapping) -> JSONObject {
        var properties = JSONObject()
        for key in mapping.keys { properties[key.name] = property(key.type, key.summary) }
        var schema: JSONObject = ["type": "object", "properties": .object(properties)]
        let required = mapping.keys.filter(\.isRequired).map { JSONValue.string($0.name) }
        if !required.isEmpty { schema["required"] = .array(required) }
        schema["additionalProperties"] = false
        if mapping.takesOneKey {
            schema["minProperties"] = 1
            schema["maxProperties"] = 1
        }
        return schema
    }

    /// A YAML scalar that the job reads as text: a text, a number or a boolean.
    private static let scalar: JSONValue = ["string", "number", "boolean"]
    /// A text that is one `${ ... }`.
    private static let oneTemplate: JSONObject = ["type": "string", "pattern": "^\\$\\{.*\\}$"]

    /// The members of the schema of a value of `type`.
    private static func schema(_ type: SchemaType) -> JSONObject {
        switch type {
        case .text, .template, .expression:
            return ["type": scalar]
        case .choice(let words, let templated):
            let enumeration: JSONObject = ["enum": .array(words.map(JSONValue.string))]
            guard templated else { return enumeration }
            let anyCase = words.map { word in
                word.map { character in "[\(character.uppercased())\(character.lowercased())]" }.joined()
            }
            return [
                "anyOf": [
                    .object(enumeration),
                    ["type": "string", "pattern": .string("^(\(anyCase.joined(separator: "|")))$")],
                    ["type": "string", "pattern": "\\$\\{"],
                ]
            ]
        case .boolean:
            return ["type": "boolean"]
        case .count(let minimum):
            return ["anyOf": [["type": "integer", "minimum": .number(JSONNumber(minimum))], .object(oneTemplate)]]
        case .integers(let range):
            let number: JSONValue = [
                "type": "integer", "minimum": .number(JSONNumber(range.lowerBound)),
                "maximum": .number(JSONNumber(range.upperBound)),
            ]
            return ["anyOf": [number, ["type": "array", "items": number]]]
        case .duration:
            return [
                "anyOf": [
                    ["type": "number", "minimum": 0],
                    ["type": "string", "pattern": "^([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?(ms|s|m)$"],
                ]
            ]
        case .names, .texts:
            return ["anyOf": [["type": scalar], ["type": "array", "items": ["type": scalar]]]]
        case .name:
            return ["type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"]
        case .displayValue:
            return ["enum": [false, true, "all"]]
        case .show:
            return ["anyOf": [["enum": ["all", false]], ["type": "integer", "minimum": 0]]]
        case .value:
            return [:]
        case .variables:
            return ["type": "object", "propertyNames": ["pattern": "^[A-Za-z_][A-Za-z0-9_]*$"]]
        case .fieldValues:
            return ["type": "object", "propertyNames": ["pattern": "^[A-Za-z0-9_.]+$"]]
        case .pathValues, .conditions:
            return ["type": "object"]
        case .scalars:
            return ["type": "object", "additionalProperties": ["type": scalar]]
        case .expressions:
            return [
                "type": "object", "propertyNames": ["pattern": "^[A-Za-z_][A-Za-z0-9_]*$"],
                "additionalProperties": ["type": scalar],
            ]
        case .steps:
            return ["type": "array", "items": ["$ref": "#/definitions/step"]]
        case .mapping(let mapping):
            return object(mapping)
        case .expressionOrMapping(let mapping):
            return ["anyOf": [["type": scalar], .object(object(mapping))]]
        }
    }
}
