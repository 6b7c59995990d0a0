/// How a swipe was made. Only `drag` carries a trace; `button` and `key` need the deck to allow
/// buttons; `api` is a program's decision (it may carry a trace, which is then validated).
public enum SwipeInput: String, Sendable, Hashable, Codable, CaseIterable {
    case drag
    case button
    case key
    case api
}
