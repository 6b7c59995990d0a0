import Hummingbird

/// Answers each request in a child task of the connection's task, so what the request needed
/// while it was answered (the async frames of the middleware chain, the handler and the store
/// calls, allocated in the answering task's own slabs) is freed when the answer is made.
/// Answered in the connection's task, a connection kept that peak for as long as it stayed open:
/// idle keep-alive connections and open event streams cost about 66 kB each against bare
/// Hummingbird's 17 kB (BENCHMARKS.md, rooms (b)). A streamed body is still written by the
/// connection's task, after the child ended.
public struct ChildTaskResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context: Sendable {
    public typealias Context = Inner.Context
    let inner: Inner

    public func respond(to request: Request, context: Context) async throws -> Response {
        async let response = inner.respond(to: request, context: context)
        return try await response
    }
}
