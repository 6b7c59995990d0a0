/// Disk failures while storing an image (logged as a 500: never the client's fault).
enum ImageStoreError: Error, CustomStringConvertible {
    case cannotCreate(String)
    case cannotRename(String, Int32)
    /// The file changed (or became a link) between the answer's head and its body.
    case changed(String)

    var description: String {
        switch self {
        case .cannotCreate(let path): return "cannot create \(path)"
        case .cannotRename(let path, let code): return "cannot rename onto \(path): errno \(code)"
        case .changed(let path): return "\(path) changed while it was served"
        }
    }
}
