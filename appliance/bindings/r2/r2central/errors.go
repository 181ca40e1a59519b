package r2central

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/dwk/fleet/appliance/worker"
)

// Errors of the S3 backend beyond worker's R2 errors. Callers branch on
// them with errors.Is.
var (
	// ErrUnavailable is matched by every error that comes from the store
	// rather than from the request: it could not be reached, it failed
	// (5xx after retries), or it did not answer within the deadline. The
	// concrete error is an *UnavailableError.
	ErrUnavailable = errors.New("object store unavailable")
	// ErrAccessDenied means the store rejected the credentials or their
	// permissions.
	ErrAccessDenied = errors.New("object store denied access")
	// ErrNoSuchBucket means the configured S3 bucket does not exist.
	ErrNoSuchBucket = errors.New("S3 bucket does not exist")
	// ErrTornRead means every attempt of a Get returned a body that does
	// not match the MD5 recorded at put time: the object kept being
	// overwritten while it was read, on a store whose reads are not atomic.
	ErrTornRead = errors.New("object body changed while it was read")
)

// UnavailableError is an operation that failed because the store is
// unreachable, failing or too slow. It matches ErrUnavailable and unwraps
// to the cause.
type UnavailableError struct {
	// Op is the R2 operation: "head", "get", "put", "delete", "list",
	// "create multipart upload", "upload part", "complete multipart
	// upload" or "abort multipart upload".
	Op string
	// Key is the R2 key the operation named ("" for list and delete).
	Key string
	// Err is the cause.
	Err error
}

// Error says which operation on which key failed and why.
func (e *UnavailableError) Error() string {
	return fmt.Sprintf("%s: %v: %v", opName(e.Op, e.Key), ErrUnavailable, e.Err)
}

// opName names an operation in an error message: r2central, the operation and
// the key, when there is one.
func opName(op, key string) string {
	if key == "" {
		return "r2central " + op
	}
	return fmt.Sprintf("r2central %s %q", op, key)
}

// Unwrap returns the cause.
func (e *UnavailableError) Unwrap() error { return e.Err }

// Is reports whether target is ErrUnavailable or worker.ErrUnavailable.
func (e *UnavailableError) Is(target error) bool {
	return target == ErrUnavailable || target == worker.ErrUnavailable
}

// fail turns the error of a call to the store into the error the caller
// sees. parent is the caller's context: when it is done, its error wins
// (the caller gave up, the store did not fail). call is the context the
// request ran under, whose own deadline means the store was too slow.
func fail(op, key string, parent, call context.Context, err error) error {
	if parent.Err() != nil {
		return fmt.Errorf("%s: %w", opName(op, key), context.Cause(parent))
	}
	if call.Err() != nil {
		return &UnavailableError{Op: op, Key: key, Err: fmt.Errorf("no answer before the deadline: %w", err)}
	}
	switch s := classify(op, err); s {
	case nil:
		return fmt.Errorf("%s: %w", opName(op, key), err)
	case ErrUnavailable:
		return &UnavailableError{Op: op, Key: key, Err: err}
	case worker.ErrNotFound, worker.ErrPreconditionFailed:
		// Expected outcomes: the SDK's description adds nothing.
		return fmt.Errorf("%s: %w", opName(op, key), s)
	default:
		return fmt.Errorf("%s: %w: %w", opName(op, key), s, err)
	}
}

// classify returns the sentinel an S3 error stands for, or nil.
func classify(op string, err error) error {
	var api smithy.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "NoSuchKey", "NotFound":
			return worker.ErrNotFound
		case "PreconditionFailed", "NotModified", "ConditionalRequestConflict":
			return worker.ErrPreconditionFailed
		case "InvalidRange":
			return worker.ErrRangeNotSatisfiable
		case "BadDigest", "InvalidDigest", "XAmzContentSHA256Mismatch", "XAmzContentChecksumMismatch":
			return worker.ErrChecksumMismatch
		case "NoSuchUpload":
			return worker.ErrNoSuchUpload
		case "InvalidPart", "InvalidPartOrder", "EntityTooSmall":
			return worker.ErrInvalidPart
		case "KeyTooLongError":
			return worker.ErrR2KeyInvalid
		case "NoSuchBucket":
			return ErrNoSuchBucket
		case "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch":
			return ErrAccessDenied
		case "SlowDown", "ServiceUnavailable", "InternalError", "RequestTimeout":
			return ErrUnavailable
		}
	}
	// No HTTP response at all: the request could not be sent or the
	// connection broke. (The SDK wraps these in a ResponseError of status 0.)
	var send *smithyhttp.RequestSendError
	var netErr net.Error
	if errors.As(err, &send) || errors.As(err, &netErr) {
		return ErrUnavailable
	}
	var resp *smithyhttp.ResponseError
	if errors.As(err, &resp) && resp.Response != nil {
		switch code := resp.HTTPStatusCode(); {
		case code == http.StatusNotFound && (op == "head" || op == "get"):
			return worker.ErrNotFound
		case code == http.StatusPreconditionFailed || code == http.StatusNotModified:
			return worker.ErrPreconditionFailed
		case code == http.StatusRequestedRangeNotSatisfiable:
			return worker.ErrRangeNotSatisfiable
		case code == http.StatusForbidden:
			return ErrAccessDenied
		case code >= 500:
			return ErrUnavailable
		}
	}
	return nil
}
