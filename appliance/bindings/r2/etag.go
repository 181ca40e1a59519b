package r2

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"strings"
)

// ETag is the S3 entity tag of a simple put: the hex MD5 of the body.
func ETag(bodyMD5 []byte) string { return hex.EncodeToString(bodyMD5) }

// MultipartETag is the S3 entity tag of a completed multipart upload: the
// hex MD5 of the concatenated binary MD5s of its parts, a dash, and the
// number of parts.
func MultipartETag(partMD5s [][]byte) string {
	h := md5.New()
	for _, sum := range partMD5s {
		h.Write(sum)
	}
	return fmt.Sprintf("%x-%d", h.Sum(nil), len(partMD5s))
}

// QuoteETag returns etag as an HTTP entity tag (RFC 9110 §8.8.3), in quotes.
func QuoteETag(etag string) string { return `"` + etag + `"` }

// UnquoteETag strips the quotes and a weak prefix (W/) from an entity tag,
// so a tag written either way compares equal. It reports whether the tag was
// weak.
func UnquoteETag(tag string) (etag string, weak bool) {
	tag = strings.TrimSpace(tag)
	if strings.HasPrefix(tag, "W/") {
		weak, tag = true, tag[2:]
	}
	if len(tag) >= 2 && tag[0] == '"' && tag[len(tag)-1] == '"' {
		tag = tag[1 : len(tag)-1]
	}
	return tag, weak
}
