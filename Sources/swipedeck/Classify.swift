import ArgumentParser
import Foundation
import SwipePhysics

struct Classify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Re-judge traces: JSON Lines in ({\"trace\":{…},\"claimed\":\"right\"}), one classification per line out.")

    @Option(help: "Profile name: \(SwipeProfile.all.map(\.name).joined(separator: ", ")).") var profile = SwipeProfile
        .standard.name
    @Argument(help: "Input file; standard input when omitted.") var file: String?

    func run() throws {
        guard let p = SwipeProfile.named(profile) else { throw ValidationError("Unknown profile '\(profile)'.") }
        let handle: FileHandle
        if let file {
            guard let h = FileHandle(forReadingAtPath: file) else { throw ValidationError("Cannot read \(file).") }
            handle = h
        } else {
            handle = .standardInput
        }
        var pending = Data()
        var out = Data()
        func emit(_ line: Data) {
            if line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { return }
            let c = Classification.of(line: line, profile: p)
            out.append(contentsOf: Array(c.jsonLine.utf8))
            out.append(10)
            if out.count > 1 << 16 {
                FileHandle.standardOutput.write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        while true {
            let chunk = handle.readData(ofLength: 1 << 16)
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let nl = pending.firstIndex(of: 10) {
                emit(pending[pending.startIndex..<nl])
                pending.removeSubrange(pending.startIndex...nl)
            }
        }
        if !pending.isEmpty { emit(pending) }
        FileHandle.standardOutput.write(out)
    }
}
