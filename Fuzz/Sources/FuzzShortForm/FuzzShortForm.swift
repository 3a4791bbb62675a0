// The REPL's input line to a step: the short form (`query incident active=true limit=5`) or YAML, turned into
// the step mapping and built and checked as the REPL does; any line gives a step or an error, never a crash.
import FuzzSupport
@testable import NowFlow

@main
enum FuzzShortForm {
    static func main() {
        Fuzzer.run { start, count in
            let line = Fuzzer.text(start, count)
            guard let node = try? YAMLNode(typedStep: line) else { return 0 }
            _ = ShortForm.summary(of: node)
            switch JobBuilder.replStep(
                node.settingID("_1"), visibleIDs: [:], variables: ["caller"])
            {
            case .success(let step): _ = step.kind.name
            case .failure(let error): _ = error.description
            }
            return 0
        }
    }
}
