import NIOPosix
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// Every `interval`, gives the memory glibc's allocator holds free back to the system
/// (`malloc_trim`), on NIO's blocking thread pool (the walk through the heap may take a few
/// milliseconds: not on the concurrency pool). A burst of requests (a crowd opening its event
/// streams in the same second) leaves the heap at its peak: freed once answered, but kept by
/// malloc, and counted in the server's RSS, until trimmed. BENCHMARKS.md, rooms (b).
struct MemoryTrimmer: Service {
    /// Time between two trims. Default 10 s: a burst's peak is given back within seconds.
    var interval: Duration = .seconds(10)

    /// glibc's `malloc_trim(pad)`, looked up at run time (Swift's Glibc module leaves out
    /// <malloc.h>); nil where the C library has none (the trimmer then does nothing).
    static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
            return nil
        #endif
    }()

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                // Cancelled (shutting down): the sleep ends early and the loop's condition ends it.
                try? await Task.sleep(for: interval)
                if Task.isCancelled { return }
                guard let trim = Self.mallocTrim else { return }
                // Throws only when the pool has stopped (the app is ending): nothing to give back then.
                try? await NIOThreadPool.singleton.runIfActive { _ = trim(0) }
            }
        }
    }
}
