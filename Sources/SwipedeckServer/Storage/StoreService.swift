import ServiceLifecycle

/// Closes the store when the application shuts down gracefully (PostgreSQL's connections and
/// its change listener; nothing for SQLite).
struct StoreService: Service {
    let store: any SwipeStore

    func run() async throws {
        try? await gracefulShutdown()
        await store.close()
    }
}
