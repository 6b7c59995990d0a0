import SwipedeckServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's open-file limit (`ulimit -n`), raised at start as far as an unprivileged process
/// may: the soft limit to the hard one, at most `AppConfiguration.descriptorCeiling`. Many systems
/// start services with a soft limit of 1,024 under a far larger hard one; left there, the default
/// connection caps (`AppConfiguration.defaultMaxConnections`) would let a hall of phones behind one
/// NAT address hold only 224 connections.
enum DescriptorLimit {
    /// Raises the soft limit; returns it as it now stands (nil when it cannot be read).
    @discardableResult
    static func raise() -> Int? {
        #if os(Linux)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        let target = min(limit.rlim_max, rlim_t(AppConfiguration.descriptorCeiling))
        if limit.rlim_cur < target {
            var raised = limit
            raised.rlim_cur = target
            // Refused (a sandbox, say): the limit stays as it was, and the defaults follow it.
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(limit.rlim_cur)
    }
}
