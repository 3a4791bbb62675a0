import Foundation
import Testing

@testable import NowFlow

/// The recipes of `docs/recipes/` for running a sharded job (docs/scale.md): each file parses as YAML (with the
/// project's parser, libyaml), says what the page says it does, and the job they run validates.
@Suite struct ShardRecipeTests {
    static let recipes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/recipes")

    private func document(_ name: String) throws -> YAMLNode {
        let text = try String(contentsOf: Self.recipes.appendingPathComponent(name), encoding: .utf8)
        return try #require(try YAMLParser.parse(text), "\(name) is empty")
    }

    /// The value at `path` (mapping keys, or sequence indexes) of `node`.
    private func value(_ node: YAMLNode, _ path: String...) -> YAMLNode? {
        path.reduce(node as YAMLNode?) { node, key in
            if let index = Int(key) { return node?.items.flatMap { $0.indices.contains(index) ? $0[index] : nil } }
            return node?.pairs?.first { $0.name == key }?.value
        }
    }

    @Test func everyRecipeParses() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.recipes.path).sorted()
        #expect(
            names == [
                "awx-inventory.yml", "awx-merge-playbook.yml", "awx-shard-playbook.yml", "github-actions-sharded.yml",
                "kubernetes-indexed-job.yaml", "kubernetes-merge-job.yaml", "sharded-job.yaml",
            ])
        for name in names { _ = try document(name) }
    }

    @Test func theJobValidatesWithAStepThatRunsOnce() throws {
        let job = try JobFile.load(path: Self.recipes.appendingPathComponent("sharded-job.yaml").path)
        #expect(job.steps.map(\.once) == [false, false, true])
    }

    @Test func gitHubActionsRunsAMatrixOfShardsThenMerges() throws {
        let workflow = try document("github-actions-sharded.yml")
        #expect(value(workflow, "jobs", "shard", "strategy", "matrix", "shard")?.items?.compactMap(\.scalarText) == ["1", "2", "3", "4"])
        let run = value(workflow, "jobs", "shard", "steps", "4", "run")?.scalarText ?? ""
        #expect(run.contains("--shard ${{ matrix.shard }}/4"))
        #expect(value(workflow, "jobs", "report", "needs")?.scalarText == "shard")
        let merge = value(workflow, "jobs", "report", "steps", "3", "run")?.scalarText ?? ""
        #expect(merge.hasPrefix(".nowflow/scripts/nowflow report merge shard-*.json"))
    }

    @Test func kubernetesGivesEachPodOfAnIndexedJobItsShard() throws {
        let job = try document("kubernetes-indexed-job.yaml")
        #expect(value(job, "spec", "completionMode")?.scalarText == "Indexed")
        #expect(value(job, "spec", "completions")?.scalarText == "4")
        let command = value(job, "spec", "template", "spec", "containers", "0", "args", "0")?.scalarText ?? ""
        #expect(command.contains(#"--shard "$((JOB_COMPLETION_INDEX + 1))/4""#))
        let merge = try document("kubernetes-merge-job.yaml")
        let mergeCommand = value(merge, "spec", "template", "spec", "containers", "0", "args", "0")?.scalarText ?? ""
        #expect(mergeCommand.hasPrefix("exec nowflow report merge /reports/shard-1.json"))
    }

    @Test func awxSlicesAnInventoryOfOneHostPerShard() throws {
        let inventory = try document("awx-inventory.yml")
        let hosts = value(inventory, "all", "children", "nowflow_shards", "hosts")?.pairs ?? []
        #expect(hosts.map(\.name) == ["shard-1", "shard-2", "shard-3", "shard-4"])
        #expect(hosts.map { value($0.value, "nowflow_shard")?.scalarText } == ["1", "2", "3", "4"])
        #expect(value(inventory, "all", "children", "nowflow_shards", "vars", "nowflow_shard_count")?.scalarText == "4")
        let play = try document("awx-shard-playbook.yml")
        let argv = value(play, "0", "tasks", "0", "ansible.builtin.command", "argv")?.items?.compactMap(\.scalarText)
        #expect(argv?.contains("{{ nowflow_shard }}/{{ nowflow_shard_count }}") == true)
        _ = try document("awx-merge-playbook.yml")
    }
}
