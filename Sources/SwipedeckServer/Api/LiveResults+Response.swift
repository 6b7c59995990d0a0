import Hummingbird

extension LiveResults {
    /// Deck `deck`'s results as a Server-Sent Events response, on a ticket of `streams` taken for
    /// `client`, its `network` and the `holder` of the credential (`StreamLimiter.take`): the
    /// results at once, then after changes, heartbeats between. `stillAllowed` is asked before
    /// every event, updates and heartbeats alike: once it answers false the stream ends without
    /// sending it. It ends too on graceful shutdown (an endless response would hold
    /// the server up); a watcher that went away is dropped at the next write to it.
    /// - Throws: 429 `too_many_streams` when `streams` has no ticket for the client.
    func response(
        deck: Deck, streams: StreamLimiter, client: String?, network: String? = nil, holder: String? = nil,
        stillAllowed: @escaping @Sendable () async -> Bool
    ) throws -> Response {
        guard let ticket = streams.take(client: client, network: network, participant: holder) else {
            throw ApiError.tooManyStreams(retryAfter: StreamLimiter.retryAfterSeconds)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no"],
            body: ResponseBody { writer in
                defer { ticket.release() }
                for await event in self.events(deckId: deck.id, slug: deck.slug).cancelOnGracefulShutdown() {
                    guard await stillAllowed() else { break }
                    try await writer.write(ByteBuffer(string: event))
                }
                try await writer.finish(nil)
            })
    }
}
