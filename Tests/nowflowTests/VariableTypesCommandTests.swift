import Foundation
import Testing

/// `nowflow run` with lists and mappings from outside: `--var` in YAML flow syntax and vars files, checked against
/// the declared variable's type before anything runs.
@Suite struct VariableTypesCommandTests {
    static let job = """
        name: Groups
        vars:
          groups: [Hardware]
        steps:
          - id: each
            foreach: vars.groups
            as: group_name
            steps:
              - id: group
                query: { table: sys_user_group, where: { name: "${group_name}" }, limit: 1 }
          - assert: "steps.each.count == 2"
        outputs:
          first: steps.each.results.0.group.records.0.name
          second: steps.each.results.1.group.records.0.name
        """

    private func home() throws -> URL {
        let directory = try ToolInvocation.temporaryDirectory()
        try Self.job.write(to: directory.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        try "groups: Database\n".write(to: directory.appendingPathComponent("one.yaml"), atomically: true, encoding: .utf8)
        try #"{"groups": ["Database", "Network"]}"#.write(
            to: directory.appendingPathComponent("two.json"), atomically: true, encoding: .utf8)
        return directory
    }

    @Test(arguments: [["--var", "groups=[Database, Network]"], ["--var", #"groups=["Database", "Network"]"#], ["--vars-file", "two.json"]])
    func aListFromOutsideIsAList(_ arguments: [String]) throws {
        let directory = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(["run", "job.yaml", "--quiet"] + arguments, in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.replacingOccurrences(of: #"\d+ ms"#, with: "N ms", options: .regularExpression) == """
                Groups: passed (4 steps run, N ms)
                outputs:
                  first = Database
                  second = Network

                """)
    }

    @Test(arguments: [
        (["--var", "groups=Database"], "nowflow run: --var groups=Database: vars.groups is an array (declared [Hardware]); give one in YAML flow syntax, such as [a, b]"),
        (["--var", "groups={Database: 1}"], "nowflow run: --var groups={Database: 1}: vars.groups is an array (declared [Hardware]), not an object"),
        (["--vars-file", "one.yaml"], "nowflow run: --vars-file one.yaml: vars.groups is an array (declared [Hardware]), not a string"),
    ])
    func aValueThatIsNoListIsRefusedBeforeAnythingRuns(_ arguments: [String], _ message: String) throws {
        let directory = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ToolInvocation.run(["run", "job.yaml"] + arguments, in: directory)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == message + "\nsee 'nowflow run --help'\n")
    }
}
