import Foundation
import Hummingbird
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Images: `POST /api/v1/images` stores an uploaded image for an owner's cards; `GET /images/{name}`
/// serves it to everyone, cacheable forever (the name is the hash of the bytes).
///
/// Uploads are the image's own bytes as the body (not a multipart form). The format is read from
/// the bytes and the declared `Content-Type` is not trusted: a PNG sent as `image/jpeg` (a renamed
/// file, a browser guessing from the extension) is stored and served as the PNG it is, and
/// anything that is not a PNG, JPEG, WebP or GIF is refused whatever it claims to be. The stored
/// type is always the one the bytes prove, and it is served with `nosniff`, so the declared type
/// can change nothing but the wording of an error. Metadata (Exif with its GPS position, XMP,
/// IPTC, comments) is stripped before the image is named and stored (`ImageMetadata`); the
/// pixel data stays byte for byte, and so does a JPEG's Exif orientation (alone), so a phone's
/// portrait photo shows upright. The width and height reported are those displayed.
struct ImagesController: Sendable {
    let store: any Store
    let images: ImageStore
    /// Largest accepted upload, bytes.
    let maxImageBytes: Int
    /// Largest accepted width × height.
    let maxPixels: Int
    let clock: @Sendable () -> Double

    /// A year: the longest lifetime caches honour. Safe because a name never serves other bytes.
    static let cacheControl = "public, max-age=31536000, immutable"

    func register(on router: Router<AppRequestContext>) {
        router.post("/api/v1/images", use: upload)
        router.get("/images/:name", use: serve)
    }

    /// 201 with `ImageJSON` and `Location` when these bytes (metadata stripped) are new; 200 with the same body when
    /// they were uploaded before (by anyone: the first upload's row is kept).
    /// 401 without an owner or the admin token; 413 `body_too_large` over `maxImageBytes`;
    /// 400/415/422 naming the `ImageRefusal` rule.
    @Sendable func upload(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<ImageJSON> {
        guard let owner = context.owner else { throw ApiError.unauthorized }
        let uploaded = try await Self.collect(request, limit: maxImageBytes)
        let image: InspectedImage
        do {
            image = try ImageSniffer.inspect(
                uploaded, declaredType: request.headers[.contentType], maxPixels: maxPixels)
        } catch {
            throw ApiError.imageRefused(error)
        }
        // Exif (GPS, camera), XMP, IPTC and comments go before the hash: the name is that of what is served.
        let bytes = ImageMetadata.stripped(uploaded, format: image.format)
        let name = ImageName(hash: Secret.sha256(bytes: bytes), format: image.format)
        // The file first: a row always names a file that is there.
        _ = try await images.store(bytes, as: name)
        let row = StoredImage(
            hash: name.hash, contentType: image.format.contentType, bytes: bytes.count, width: image.width,
            height: image.height,
            ownerId: owner.ownerId, createdAt: clock())
        let added = try await store.recordImage(row)
        let body = ImageJSON(
            url: name.url, contentType: row.contentType, bytes: row.bytes, width: row.width, height: row.height)
        return EditedResponse(status: added ? .created : .ok, headers: [.location: name.url], response: body)
    }

    /// The stored file with its type, a year-long immutable cache and its hash as a strong ETag
    /// (304 on a matching `If-None-Match`). 404 unless the name is exactly 64 lowercase hex digits,
    /// a dot and `png`, `jpg`, `webp` or `gif`, and such a file is stored as a regular file (a
    /// symbolic link of that name, whatever it points at, is not served).
    @Sendable func serve(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let name = ImageName(fileName: try context.parameters.require("name")) else {
            throw ApiError.notFound("image")
        }
        let etag = "\"\(name.hash)\""
        var headers: HTTPFields = [
            .contentType: name.format.contentType, .cacheControl: Self.cacheControl, .eTag: etag,
        ]
        headers[.xContentTypeOptions] = "nosniff"
        if let match = request.headers[.ifNoneMatch], Self.matches(match, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        let path = images.path(of: name)
        // Never through a link: a restored `images/x.png -> /etc/passwd` is not found, not served.
        guard
            let size = try await NIOThreadPool.singleton.runIfActive({ () -> Int? in
                guard let (descriptor, size) = RegularFiles.openRegular(path) else { return nil }
                close(descriptor)
                return size
            })
        else { throw ApiError.notFound("image") }
        return Response(status: .ok, headers: headers, body: Self.body(path: path, size: size))
    }

    /// The file at `path` (`size` bytes when it was looked at), streamed in chunks read on NIO's
    /// thread pool; opened again when the body is written (a HEAD answer never opens it), as
    /// `RegularFiles.openRegular` allows: a regular file, not through a link.
    static func body(path: String, size: Int) -> ResponseBody {
        ResponseBody(contentLength: size) { writer in
            let pool = NIOThreadPool.singleton
            guard let (descriptor, now) = try await pool.runIfActive({ RegularFiles.openRegular(path) }), now == size
            else { throw ImageStoreError.changed(path) }
            defer { close(descriptor) }
            var offset = 0
            while offset < size {
                let (at, count) = (offset, min(Self.chunk, size - offset))
                let chunk = try await pool.runIfActive { try RegularFiles.read(descriptor, at: at, count: count) }
                guard !chunk.isEmpty else { throw ImageStoreError.changed(path) }
                try await writer.write(ByteBuffer(bytes: chunk))
                offset += chunk.count
            }
            try await writer.finish(nil)
        }
    }

    /// Bytes read and written at a time: 128 KiB, as Hummingbird's own file responses.
    static let chunk = 128 * 1024

    /// Whether an `If-None-Match` list names `etag` (weak comparison, as RFC 9110 asks) or is `*`.
    static func matches(_ header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }

    /// The whole body, refused with 413 `body_too_large` as soon as it is known to exceed `limit`
    /// bytes: at once when `Content-Length` says so, else at the chunk that crosses the limit
    /// (chunked uploads), so at most `limit` bytes are ever held. A body cut short (the owner
    /// left the page mid-upload: fewer bytes than `Content-Length` before the connection closed)
    /// is 400 `malformed_body`, never half an image.
    static func collect(_ request: Request, limit: Int) async throws -> [UInt8] {
        let announced = request.headers[.contentLength].flatMap(Int.init)
        if let announced, announced > limit { throw ApiError.tooLarge(limit) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(announced ?? 64 * 1024, limit))
        for try await chunk in request.body {
            guard chunk.readableBytes <= limit - bytes.count else { throw ApiError.tooLarge(limit) }
            bytes.append(contentsOf: chunk.readableBytesView)
        }
        if let announced, bytes.count < announced { throw ApiError.malformedBody }
        return bytes
    }
}
