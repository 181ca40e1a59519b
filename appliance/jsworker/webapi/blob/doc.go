// Package blob is the File API's Blob and File and the XHR standard's
// FormData for dwk's JavaScript runtime, and the form-data codecs the
// fetch layer uses for Request.formData(), Response.formData() and
// FormData bodies.
//
// A Blob holds its bytes as one Uint8Array that nothing changes: the
// constructor concatenates its parts into new memory (in Go), while a
// slice, a Blob made of a single Blob, a structuredClone, and the File
// that FormData makes of a Blob share the memory of the Blob they come
// from. text(), bytes() and arrayBuffer() decode or copy in Go; stream()
// is a byte stream (the streams extension's internal.pullStream) of
// 64 KiB copies.
//
// # For other extensions
//
// On internal:
//
//   - isBlob(x), isFile(x) are brand checks.
//   - blobBytes(blob) → Uint8Array: the Blob's bytes, not a copy. Callers
//     must neither change them nor hand them to application code (copy
//     first, e.g. for a body's bytes()).
//   - newBlob(bytes, type) and newFile(bytes, name, type, lastModified)
//     make a Blob or File over bytes without copying: the caller gives
//     up bytes (Response.blob() wraps the body's bytes this way).
//   - parseFormData(bytes, contentType) → FormData parses a body of type
//     multipart/form-data (with Go's mime/multipart: CRLF or LF line
//     breaks; a part with a filename parameter becomes a File of that
//     name, with the part's Content-Type as its type, "" without one;
//     other parts are UTF-8 strings) or application/x-www-form-urlencoded
//     (UTF-8 only). It throws a TypeError naming the problem: no
//     boundary, no initial boundary, a truncated body, a part without a
//     form-data Content-Disposition or without a name, another charset,
//     another Content-Type.
//   - serializeFormData(formData) → { contentType, body: Uint8Array } is
//     the HTML standard's multipart/form-data encoding with a random
//     boundary ("----DwkFormBoundary" and 16 letters and digits): line
//     breaks in names and string values become CRLF, CR, LF and '"' in
//     names and filenames are escaped as %0D, %0A and %22, and a file
//     without a type is sent as application/octet-stream.
//
// When the clone extension is there, Blob and File join its hooks:
// structuredClone shares their bytes, and its serialization carries them
// as base64 (with the encoding extension's conversions).
//
// # Differences
//
// new FormData(form) throws a TypeError for any argument, as there are
// no form elements. The File that parseFormData makes of a part without
// a Content-Type has the type "", as in workerd (the HTML standard's
// parser says text/plain). Field names are taken as they are sent: a
// %22 that a browser wrote for '"' stays %22, as in workerd. A Blob's
// native line endings are "\n".
package blob
