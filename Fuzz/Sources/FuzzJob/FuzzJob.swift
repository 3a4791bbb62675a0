// Whole job files: YAML, then the job model and its checks. Any bytes must give a job or diagnostics, never a
// crash or a hang.
import FuzzSupport
import NowFlow

@main
enum FuzzJob {
    static func main() {
        Fuzzer.run { start, count in
            do throws(JobFileError) {
                let job = try JobFile.parse(Fuzzer.text(start, count), file: "fuzz.yaml")
                _ = job.stepCount
            } catch {
                _ = error.description
            }
            return 0
        }
    }
}
