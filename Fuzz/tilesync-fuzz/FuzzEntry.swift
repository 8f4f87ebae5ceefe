import Foundation

#if FUZZING
/// libFuzzer's driver (in libclang_rt.fuzzer): parses the fuzzer flags and calls back per input.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// libFuzzer's per-input entry point; the target is chosen by `TILESYNC_FUZZ_TARGET`.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let name = ProcessInfo.processInfo.environment["TILESYNC_FUZZ_TARGET"] ?? "metadata"
    guard let target = FuzzTargets.Target(rawValue: name), let start else { return 0 }
    FuzzTargets.run(target, Data(bytes: start, count: size))
    return 0
}

/// SwiftPM links an executable's `main` to `<product>_main`; in a fuzz build that hands over to
/// libFuzzer's driver.
@_cdecl("tilesync_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { start, size in fuzzOneInput(start, size) }
}
#else
/// Without libFuzzer: replays inputs, `tilesync-fuzz TARGET FILE...` (crash reproduction, and
/// the regression test of every input the fuzzer ever found).
@main
enum FuzzReplay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTargets.Target(rawValue: name) else {
            FileHandle.standardError.write(Data("usage: tilesync-fuzz TARGET FILE... (targets: \(FuzzTargets.Target.allCases.map(\.rawValue).joined(separator: " ")))\n".utf8))
            exit(2)
        }
        defer { try? FileManager.default.removeItem(atPath: FuzzTargets.scratch) }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                try? FileManager.default.removeItem(atPath: FuzzTargets.scratch)
                exit(1)
            }
            FuzzTargets.run(target, data)
        }
        print("replayed \(arguments.count - 1) inputs on \(name)")
    }
}
#endif
