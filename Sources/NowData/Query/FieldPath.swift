/// A field name as a query, `sysparm_fields` or a job writes it, which may walk references: `caller_id.manager.name`
/// is the `name` of the `manager` of the record `caller_id` references.
///
/// The path is resolved against a dictionary in one place, ``walk(from:field:target:)``, which returns the
/// definition of every field on the way: the local instance's query translation, output fields and web views, the
/// runner's name check and its second opinion all walk a path through it, each with its own dictionary.
///
/// ```swift
/// let walk = FieldPath("caller_id.name").walk(from: "incident") { name, table in
///     dictionary[table]?[name]
/// } target: { field in field.referencedTable }
/// if let failure = walk.failure { print(failure.reason) }  // "sys_user has no field 'name'"
/// ```
package struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    /// The names walked, as written (`["caller_id", "name"]`); never empty (an empty text is one empty name).
    package let components: [String]

    /// The path of `text`, split at each dot.
    package init(_ text: String) {
        components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// The path as written.
    package var description: String { components.joined(separator: ".") }

    /// The first name: the field of the table the path starts from.
    package var first: String { components[0] }

    /// The last name: the field whose value the path reads.
    package var last: String { components[components.count - 1] }

    /// Whether the path walks at least one reference.
    package var isDotWalked: Bool { components.count > 1 }

    /// The path up to and including the name at `index` (`caller_id` for index 0 of `caller_id.name`).
    package func prefix(through index: Int) -> String {
        components[...index].joined(separator: ".")
    }

    /// A field the walk reached: its definition and the table it was looked up on.
    package struct Step<Field> {
        package var table: String
        package var field: Field
    }

    /// Why a walk stopped before the path's last name.
    package enum Failure: Sendable, Hashable {
        /// `components[index]` is not a field of `table`.
        case unknownField(index: Int, table: String)
        /// `components[index]`, a field of `table`, is not a reference, so the names after it cannot be walked.
        case notAReference(index: Int, table: String)

        /// The index of the name the walk stopped at.
        package var index: Int {
            switch self {
            case .unknownField(let index, _), .notAReference(let index, _): index
            }
        }

        /// The table the name was looked up on.
        package var table: String {
            switch self {
            case .unknownField(_, let table), .notAReference(_, let table): table
            }
        }
    }

    /// The outcome of ``walk(from:field:target:)``.
    package struct Walk<Field> {
        /// The path walked.
        package var path: FieldPath
        /// The fields found, in order, each with its table: every name of the path when the walk succeeded; the
        /// names before the failure otherwise (and, for ``Failure/notAReference(index:table:)``, that field too).
        package var steps: [Step<Field>]
        /// Why the walk stopped early; nil when every name was found.
        package var failure: Failure?

        /// The last name's field; nil when the walk failed.
        package var leaf: Step<Field>? { failure == nil ? steps.last : nil }

        /// The references walked through, before the last name's field.
        package var hops: ArraySlice<Step<Field>> { steps.dropLast() }

        /// The failure in words: `sys_user has no field 'nmae'`, `incident.short_description is not a reference, it
        /// cannot be dot-walked`; nil when the walk succeeded.
        package var reason: String? {
            switch failure {
            case nil: nil
            case .unknownField(let index, let table)?: "\(table) has no field '\(path.components[index])'"
            case .notAReference(let index, let table)?:
                "\(table).\(path.components[index]) is not a reference, it cannot be dot-walked"
            }
        }
    }

    /// Walks the path from `table`: each name is looked up with `field(name, table)` (nil: the table has no such
    /// field), and each name but the last must be a reference, whose `target` is the table the next name is
    /// looked up on (nil: not a reference).
    package func walk<Field>(
        from table: String, field: (_ name: String, _ table: String) -> Field?, target: (Field) -> String?
    ) -> Walk<Field> {
        var walk = Walk<Field>(path: self, steps: [], failure: nil)
        var current = table
        for (index, name) in components.enumerated() {
            guard let found = field(name, current) else {
                walk.failure = .unknownField(index: index, table: current)
                return walk
            }
            walk.steps.append(Step(table: current, field: found))
            if index == components.count - 1 { break }
            guard let next = target(found) else {
                walk.failure = .notAReference(index: index, table: current)
                return walk
            }
            current = next
        }
        return walk
    }
}

extension FieldPath.Step: Sendable where Field: Sendable {}
extension FieldPath.Walk: Sendable where Field: Sendable {}
