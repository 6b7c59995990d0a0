import Foundation
import NIOPosix

/// The folder of uploaded image files, each named by its content (`ImageName`).
///
/// Files are written whole or not at all: into a temporary file in the same folder, flushed to
/// disk, then renamed over the final name (a rename within one file system is atomic), so a
/// reader never sees half a file. Disk work runs on NIO's thread pool, off Swift's concurrency
/// pool. Nothing here deletes a stored image.
public struct ImageStore: Sendable {
    /// Absolute or relative path of the folder.
    public let directory: String
    let threadPool: NIOThreadPool

    public init(directory: String, threadPool: NIOThreadPool = .singleton) {
        self.directory = directory
        self.threadPool = threadPool
    }

    /// Creates the folder and its parents when missing.
    public func prepare() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// The path of the file `name` is stored in.
    public func path(of name: ImageName) -> String {
        directory + "/" + name.fileName
    }

    /// Stores `bytes` as `name`, unless a file of that name and size is there already (the name
    /// is the bytes' hash, so it holds the same bytes).
    /// - Returns: true when this call wrote the file.
    public func store(_ bytes: [UInt8], as name: ImageName) async throws -> Bool {
        let target = path(of: name)
        let temporary = directory + "/.upload-\(UUID().uuidString).tmp"
        return try await threadPool.runIfActive {
            let manager = FileManager.default
            // No readable file at the target (the usual case) means: write it.
            if let size = (try? manager.attributesOfItem(atPath: target))?[.size] as? Int, size == bytes.count {
                return false
            }
            guard manager.createFile(atPath: temporary, contents: nil) else {
                throw ImageStoreError.cannotCreate(temporary)
            }
            do {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
                // Closing after `synchronize` cannot lose data; a close error has nothing left to report.
                defer { try? handle.close() }
                try handle.write(contentsOf: bytes)
                try handle.synchronize()
                guard rename(temporary, target) == 0 else { throw ImageStoreError.cannotRename(target, errno) }
            } catch {
                // Best effort: the write's own error is the one to report; a stray `.upload-*.tmp` is harmless.
                try? manager.removeItem(atPath: temporary)
                throw error
            }
            return true
        }
    }
}
