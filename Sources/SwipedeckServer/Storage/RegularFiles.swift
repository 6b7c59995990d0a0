import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files opened without following a symbolic link in their last path component (`O_NOFOLLOW`)
/// and accepted only when regular: what the image server reads and what backup and restore copy,
/// so a link planted in a backup (`images/x.png -> /etc/passwd`) or waiting at a target is
/// neither read, nor followed when written, nor recreated. Blocking calls: run them on NIO's
/// thread pool (the server) or in a command.
public enum RegularFiles {
    /// What is at a path, without following a link there.
    public enum Kind: Sendable, Equatable {
        case missing
        case regular
        case directory
        /// A symbolic link, dangling or not.
        case symbolicLink
        /// A socket, a device, a pipe.
        case other
    }

    /// Why a copy or read failed, as a sentence naming the path.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// What is at `path` (`lstat`: a link is a link, wherever it points).
    public static func kind(_ path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// Opens `path` for reading when it is a regular file, not through a link.
    /// - Returns: the descriptor (the caller closes it) and the file's size; nil for anything else
    ///   (missing, a link, a folder, a device).
    public static func openRegular(_ path: String) -> (descriptor: Int32, size: Int)? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        return (descriptor, Int(info.st_size))
    }

    /// Up to `count` bytes of `descriptor` from `offset` (fewer at its end).
    public static func read(_ descriptor: Int32, at offset: Int, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + filled, count - filled, off_t(offset + filled))
            }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw Failure(description: "a read failed: errno \(errno)") }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes.prefix(filled))
    }

    /// Copies the regular file `from` to the new file `to`: read without following a link, written
    /// as a file that did not exist (`O_CREAT | O_EXCL | O_NOFOLLOW`, so not through a link either),
    /// flushed to disk.
    /// - Returns: false when `from` is no regular file (nothing is written).
    /// - Throws: `Failure` when `to` exists (a link included) or a read or write fails.
    public static func copy(from: String, to: String) throws -> Bool {
        guard let (source, size) = openRegular(from) else { return false }
        defer { close(source) }
        let target = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard target >= 0 else { throw Failure(description: "cannot create \(to): errno \(errno)") }
        var done = false
        defer {
            close(target)
            // A half-written copy is removed: the next run copies the name again.
            if !done { unlink(to) }
        }
        var offset = 0
        while offset < size {
            let chunk = try read(source, at: offset, count: min(1 << 20, size - offset))
            if chunk.isEmpty { break }
            var written = 0
            while written < chunk.count {
                let wrote = chunk.withUnsafeBytes { raw in
                    write(target, raw.baseAddress! + written, chunk.count - written)
                }
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else { throw Failure(description: "cannot write \(to): errno \(errno)") }
                written += wrote
            }
            offset += chunk.count
        }
        guard fsync(target) == 0 else { throw Failure(description: "cannot flush \(to): errno \(errno)") }
        done = true
        return true
    }
}
