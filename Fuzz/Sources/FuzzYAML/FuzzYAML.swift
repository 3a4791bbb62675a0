// The YAML layer: any bytes must give nodes or a YAMLError, never a crash or a hang.
import FuzzSupport
@testable import NowFlow

@main
enum FuzzYAML {
    static func main() {
        Fuzzer.run { start, count in
            if let root = try? YAMLParser.parse(Fuzzer.text(start, count)) {
                _ = root.kindDescription
                _ = root.resolvedScalar
            }
            return 0
        }
    }
}
