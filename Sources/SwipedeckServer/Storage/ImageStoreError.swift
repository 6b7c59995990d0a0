/// Disk failures while storing an image (logged as a 500: never the client's fault).
enum ImageStoreError: Error, CustomStringConvertible {
    case cannotCreate(String)
    case cannotRename(String, Int32)

    var description: String {
        switch self {
        case .cannotCreate(let path): return "cannot create \(path)"
        case .cannotRename(let path, let code): return "cannot rename onto \(path): errno \(code)"
        }
    }
}
