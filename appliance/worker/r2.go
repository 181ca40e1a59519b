package worker

import (
	"context"
	"errors"
	"io"
	"time"
)

// R2Bucket is an R2 bucket binding. Keys are at most 1024 bytes of UTF-8.
type R2Bucket interface {
	// Head returns an object's metadata, or ErrNotFound.
	Head(ctx context.Context, key string) (*R2Object, error)
	// Get returns an object with its body, or ErrNotFound. When opts.OnlyIf
	// fails, it returns the object's metadata with a nil Body and
	// ErrPreconditionFailed. The caller closes Body.
	Get(ctx context.Context, key string, opts *R2GetOptions) (*R2ObjectBody, error)
	// Put stores body under key. When opts.OnlyIf fails it stores nothing and
	// returns ErrPreconditionFailed. When a checksum is given and does not
	// match, it stores nothing and returns ErrChecksumMismatch.
	Put(ctx context.Context, key string, body io.Reader, opts *R2PutOptions) (*R2Object, error)
	// Delete removes up to 1000 keys; missing keys are not an error, more
	// than 1000 keys is.
	Delete(ctx context.Context, keys ...string) error
	// List returns objects in byte order of their keys. Listed objects carry
	// Key, Size, ETag, HTTPETag and Uploaded; whether Version, metadata and
	// checksums are filled in depends on the backend (S3 does not list them).
	List(ctx context.Context, opts *R2ListOptions) (*R2Objects, error)
	// CreateMultipartUpload starts a multipart upload.
	CreateMultipartUpload(ctx context.Context, key string, opts *R2MultipartOptions) (R2MultipartUpload, error)
	// ResumeMultipartUpload returns a handle on an upload started earlier. It
	// does not check that the upload exists; its methods do.
	ResumeMultipartUpload(key, uploadID string) R2MultipartUpload
}

// R2MultipartUpload is one multipart upload. Parts other than the last must
// be at least 5 MiB, as in S3.
type R2MultipartUpload interface {
	Key() string
	UploadID() string
	// UploadPart stores part number n (1 to 10000; otherwise ErrInvalidPart),
	// replacing an earlier part n. It returns ErrNoSuchUpload when the upload
	// is unknown, completed or aborted.
	UploadPart(ctx context.Context, n int, body io.Reader) (R2UploadedPart, error)
	// Complete assembles the listed parts, in ascending order of part
	// number, into the object; parts not listed are discarded. A part that
	// was not uploaded, has another ETag, is out of order or, unless last,
	// is under 5 MiB yields ErrInvalidPart and leaves the upload open.
	Complete(ctx context.Context, parts []R2UploadedPart) (*R2Object, error)
	// Abort discards the upload and its parts, or returns ErrNoSuchUpload.
	Abort(ctx context.Context) error
}

// R2UploadedPart identifies an uploaded part. Complete accepts ETag with or
// without quotes.
type R2UploadedPart struct {
	PartNumber int
	ETag       string
}

// R2Object is an object's metadata.
type R2Object struct {
	Key string
	// Version is unique per write of the key.
	Version string
	Size    int64
	// ETag is the S3 entity tag without quotes: the hex MD5 of the body for a
	// simple put, "<md5 of part md5s>-<parts>" for a multipart upload.
	ETag string
	// HTTPETag is ETag in quotes, for HTTP headers.
	HTTPETag       string
	Uploaded       time.Time
	HTTPMetadata   R2HTTPMetadata
	CustomMetadata map[string]string
	// Checksums holds the checksums given at put time.
	Checksums R2Checksums
	// Range is the part of the body returned by a ranged Get, as an absolute
	// Offset and Length (Suffix resolved, Length cut at the end).
	Range *R2Range
}

// R2ObjectBody is an object with its body.
type R2ObjectBody struct {
	R2Object
	Body io.ReadCloser
}

// R2HTTPMetadata are the HTTP headers stored with an object.
type R2HTTPMetadata struct {
	ContentType        string
	ContentLanguage    string
	ContentDisposition string
	ContentEncoding    string
	CacheControl       string
	CacheExpiry        time.Time
}

// R2Checksums are optional integrity checksums of an object's body.
type R2Checksums struct {
	MD5    []byte
	SHA256 []byte
}

// R2Conditional makes a request depend on the stored object. Zero fields are
// ignored. The semantics are HTTP's (RFC 9110 §13): EtagMatches is If-Match,
// EtagDoesNotMatch If-None-Match ("*" and lists of tags, quoted or not),
// UploadedBefore If-Unmodified-Since (Uploaded <= time) and UploadedAfter
// If-Modified-Since (Uploaded > time); a date is ignored when the etag
// condition of its pair is given or there is no object. As in R2, all four
// apply to Get and Put alike, and every failure is ErrPreconditionFailed.
type R2Conditional struct {
	EtagMatches      string
	EtagDoesNotMatch string
	UploadedBefore   time.Time
	UploadedAfter    time.Time
}

// R2Range selects part of a body: Offset and Length (0 = to the end), or the
// last Suffix bytes. An Offset at or past the end is ErrRangeNotSatisfiable;
// a Length or Suffix past the body is cut to it.
type R2Range struct {
	Offset int64
	Length int64
	Suffix int64
}

// R2GetOptions are the optional parts of a get.
type R2GetOptions struct {
	OnlyIf *R2Conditional
	Range  *R2Range
}

// R2PutOptions are the optional parts of a put.
type R2PutOptions struct {
	OnlyIf         *R2Conditional
	HTTPMetadata   R2HTTPMetadata
	CustomMetadata map[string]string
	// MD5 or SHA256, when set, must match the body.
	MD5    []byte
	SHA256 []byte
}

// R2MultipartOptions are the optional parts of a multipart upload.
type R2MultipartOptions struct {
	HTTPMetadata   R2HTTPMetadata
	CustomMetadata map[string]string
}

// R2ListOptions select the objects List returns.
type R2ListOptions struct {
	Prefix string
	// Limit is the maximum number of objects and prefixes; 0 means 1000,
	// larger values are cut to 1000, negative ones are an error.
	Limit  int
	Cursor string
	// Delimiter groups keys that share a prefix up to it into
	// DelimitedPrefixes.
	Delimiter string
	// StartAfter lists only keys that sort after it.
	StartAfter string
}

// R2Objects is one page of List.
type R2Objects struct {
	Objects           []R2Object
	DelimitedPrefixes []string
	// Truncated is true when more entries follow; Cursor, opaque, then
	// continues the listing.
	Truncated bool
	Cursor    string
}

// Errors of the R2 API.
var (
	ErrPreconditionFailed  = errors.New("r2: precondition failed")
	ErrChecksumMismatch    = errors.New("r2: checksum does not match body")
	ErrR2KeyInvalid        = errors.New("r2: key must be 1 to 1024 bytes of UTF-8")
	ErrNoSuchUpload        = errors.New("r2: no such multipart upload")
	ErrInvalidPart         = errors.New("r2: invalid multipart part")
	ErrRangeNotSatisfiable = errors.New("r2: range not satisfiable")
)

type unboundR2 struct{ err error }

var _ R2Bucket = unboundR2{}

func (u unboundR2) Head(context.Context, string) (*R2Object, error) { return nil, u.err }
func (u unboundR2) Get(context.Context, string, *R2GetOptions) (*R2ObjectBody, error) {
	return nil, u.err
}
func (u unboundR2) Put(context.Context, string, io.Reader, *R2PutOptions) (*R2Object, error) {
	return nil, u.err
}
func (u unboundR2) Delete(context.Context, ...string) error { return u.err }
func (u unboundR2) List(context.Context, *R2ListOptions) (*R2Objects, error) {
	return nil, u.err
}
func (u unboundR2) CreateMultipartUpload(context.Context, string, *R2MultipartOptions) (R2MultipartUpload, error) {
	return nil, u.err
}
func (u unboundR2) ResumeMultipartUpload(key, id string) R2MultipartUpload {
	return unboundUpload{key: key, id: id, err: u.err}
}

type unboundUpload struct {
	key, id string
	err     error
}

func (u unboundUpload) Key() string      { return u.key }
func (u unboundUpload) UploadID() string { return u.id }
func (u unboundUpload) UploadPart(context.Context, int, io.Reader) (R2UploadedPart, error) {
	return R2UploadedPart{}, u.err
}
func (u unboundUpload) Complete(context.Context, []R2UploadedPart) (*R2Object, error) {
	return nil, u.err
}
func (u unboundUpload) Abort(context.Context) error { return u.err }
