import ServiceLifecycle

/// Closes the store when the application shuts down gracefully (PostgreSQL's connections and
/// its change listener; nothing for SQLite).
struct StoreService: Service {
    let store: any Store

    func run() async throws {
        // Throws only when the task is cancelled, which is a shutdown as well: close either way.
        try? await gracefulShutdown()
        await store.close()
    }
}
