package markerstore

import (
	"errors"
	"net"
	"net/http"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// Sentinel errors, beyond marker's (marker.ErrMissing, marker.ErrCorrupt).
// Test with errors.Is.
var (
	// ErrNoBucket: the fleet's S3 bucket does not exist.
	ErrNoBucket = errors.New("S3 bucket does not exist")
	// ErrAccessDenied: the S3 store refused the credentials or their
	// permissions.
	ErrAccessDenied = errors.New("S3 store denied access")
	// ErrS3Unavailable: the S3 store could not be reached or failed.
	ErrS3Unavailable = errors.New("S3 store unavailable")
	// ErrInvalidMarker: Write was given a marker no replica would accept
	// (no fleet or id, or a mode other than marker.Mode).
	ErrInvalidMarker = errors.New("invalid mode marker")
)

// classify returns the sentinel an S3 error stands for (marker.ErrMissing
// for a missing object is decided by the caller, which knows whether the
// bucket exists), or nil.
func classify(err error) error {
	var api smithy.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "NoSuchBucket":
			return ErrNoBucket
		case "NoSuchKey":
			return errNoKey
		case "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "Forbidden":
			return ErrAccessDenied
		case "SlowDown", "ServiceUnavailable", "InternalError", "RequestTimeout":
			return ErrS3Unavailable
		}
	}
	var resp *smithyhttp.ResponseError
	if errors.As(err, &resp) && resp.Response != nil {
		switch code := resp.HTTPStatusCode(); {
		case code == http.StatusNotFound:
			return errNotFound
		case code == http.StatusForbidden || code == http.StatusUnauthorized:
			return ErrAccessDenied
		case code >= 500:
			return ErrS3Unavailable
		}
	}
	var send *smithyhttp.RequestSendError
	var netErr net.Error
	if errors.As(err, &send) || errors.As(err, &netErr) {
		return ErrS3Unavailable
	}
	return nil
}

// Internal classifications: a missing key, and a bare 404 (a HEAD has no
// body to say whether the bucket or the key is missing).
var (
	errNoKey    = errors.New("no such key")
	errNotFound = errors.New("not found")
)
