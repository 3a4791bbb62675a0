import CFuzzerDriver
import Foundation

/// The main of a fuzz target: libFuzzer's driver over the process's arguments (`-runs=`, `-dict=`, corpus
/// directories...), calling `test` with each input.
public enum Fuzzer {
    /// Runs libFuzzer with `test` as the target and exits with its status; `test` must return 0 (libFuzzer
    /// reserves other values) and trap on a failed check.
    public static func run(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        exit(fuzzer_driver_main(CommandLine.argc, CommandLine.unsafeArgv, test))
    }

    /// The input's bytes as a buffer (libFuzzer passes a null pointer for the empty input).
    public static func bytes(_ start: UnsafePointer<UInt8>?, _ count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : count)
    }

    /// The input as text: its bytes decoded as UTF-8, invalid sequences replaced.
    public static func text(_ start: UnsafePointer<UInt8>?, _ count: Int) -> String {
        String(decoding: bytes(start, count), as: UTF8.self)
    }
}
