import Hummingbird

// `hello PORT`: answers GET / with "hello" on 127.0.0.1; no middleware, no database.
let port = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 8089 : 8089
let router = Router()
router.get("/") { _, _ in "hello" }
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
