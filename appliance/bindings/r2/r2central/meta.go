package r2central

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/worker"
)

// Reserved x-amz-meta-* keys (as the SDK reports them: lower case, without
// the x-amz-meta- prefix). User keys with this prefix are stored in
// metaCustom, so they never collide.
const (
	reservedPrefix = "dwk-"
	// metaVersion is the R2 Version: a random id per write.
	metaVersion = "dwk-version"
	// metaMD5 and metaSHA256 are the checksums given at put time, in hex.
	metaMD5    = "dwk-md5"
	metaSHA256 = "dwk-sha256"
	// metaCustom holds the whole custom metadata as base64url(JSON) when it
	// cannot be stored as plain x-amz-meta-* headers.
	metaCustom = "dwk-custom"
	// metaNoType marks an object put without a Content-Type, since stores
	// report a default type (application/octet-stream) for those.
	metaNoType = "dwk-no-type"
	// metaBodyMD5 is the MD5 of a simple put's body, in hex, which Get
	// checks bodies against (see Config.VerifiedReadMax). Unlike the ETag
	// it is the MD5 on every store, encrypted or not.
	metaBodyMD5 = "dwk-body-md5"
)

// encodeMetadata returns the x-amz-meta-* map for a write.
func encodeMetadata(version string, custom map[string]string, http worker.R2HTTPMetadata, md5, sha []byte) (map[string]string, error) {
	m := map[string]string{metaVersion: version}
	if md5 != nil {
		m[metaMD5] = hex.EncodeToString(md5)
	}
	if sha != nil {
		m[metaSHA256] = hex.EncodeToString(sha)
	}
	if http.ContentType == "" {
		m[metaNoType] = "1"
	}
	if plainMetadata(custom) {
		for k, v := range custom {
			m[k] = v
		}
		return m, nil
	}
	j, err := json.Marshal(custom)
	if err != nil {
		return nil, fmt.Errorf("encode custom metadata: %w", err)
	}
	m[metaCustom] = base64.RawURLEncoding.EncodeToString(j)
	return m, nil
}

// plainMetadata reports whether custom can be stored as x-amz-meta-*
// headers and read back unchanged: keys of lower-case letters, digits and
// dashes outside the reserved prefix; values of printable ASCII without
// spaces at either end, which HTTP would trim, and without the "=?" that
// starts an RFC 2047 encoded word, which some stores decode.
func plainMetadata(custom map[string]string) bool {
	for k, v := range custom {
		if k == "" || strings.HasPrefix(k, reservedPrefix) || v == "" {
			return false
		}
		for _, c := range []byte(k) {
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
		for _, c := range []byte(v) {
			if c < 0x20 || c > 0x7e {
				return false
			}
		}
		if v[0] == ' ' || v[len(v)-1] == ' ' || strings.HasPrefix(v, "=?") {
			return false
		}
	}
	return true
}

// headers are the parts of a HEAD or GET response an R2Object is made of.
type headers struct {
	ETag          *string
	LastModified  *time.Time
	ContentType   *string
	ContentLang   *string
	ContentDisp   *string
	ContentEnc    *string
	CacheControl  *string
	ExpiresString *string
	VersionID     *string
	Metadata      map[string]string
}

// object builds the R2Object for key of size bytes from h.
func (h headers) object(key string, size int64) (*worker.R2Object, error) {
	etag, _ := r2.UnquoteETag(aws.ToString(h.ETag))
	o := &worker.R2Object{
		Key:      key,
		Size:     size,
		ETag:     etag,
		HTTPETag: r2.QuoteETag(etag),
		Uploaded: uploaded(h.LastModified),
		HTTPMetadata: worker.R2HTTPMetadata{
			ContentType:        aws.ToString(h.ContentType),
			ContentLanguage:    aws.ToString(h.ContentLang),
			ContentDisposition: aws.ToString(h.ContentDisp),
			ContentEncoding:    aws.ToString(h.ContentEnc),
			CacheControl:       aws.ToString(h.CacheControl),
		},
	}
	if s := aws.ToString(h.ExpiresString); s != "" {
		if t, err := http.ParseTime(s); err == nil {
			o.HTTPMetadata.CacheExpiry = t.UTC()
		}
	}
	m := h.Metadata
	if m[metaNoType] != "" {
		o.HTTPMetadata.ContentType = ""
	}
	o.Version = m[metaVersion]
	if o.Version == "" {
		o.Version = foreignVersion(aws.ToString(h.VersionID), etag, o.Uploaded)
	}
	var err error
	if o.Checksums.MD5, err = hexField(m, metaMD5); err != nil {
		return nil, err
	}
	if o.Checksums.SHA256, err = hexField(m, metaSHA256); err != nil {
		return nil, err
	}
	if o.CustomMetadata, err = decodeCustom(m); err != nil {
		return nil, err
	}
	return o, nil
}

// bodyMD5 is the body MD5 a Put recorded, or nil.
func (h headers) bodyMD5() []byte {
	sum, err := hexField(h.Metadata, metaBodyMD5)
	if err != nil || len(sum) != 16 {
		return nil
	}
	return sum
}

// uploaded is an S3 Last-Modified time as R2's Uploaded: whole seconds, as
// HTTP dates carry them, so Head, Get and List report the same time.
func uploaded(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.Truncate(time.Second).UTC()
}

// foreignVersion is the Version of an object some other S3 client wrote,
// which has no dwk-version: S3's version id when the bucket is versioned,
// else one derived from the ETag and upload time (the same body rewritten
// within one second then keeps its Version).
func foreignVersion(versionID, etag string, up time.Time) string {
	if versionID != "" && versionID != "null" {
		return versionID
	}
	return fmt.Sprintf("s3-%s-%d", etag, up.Unix())
}

// hexField decodes the hex value of metadata key k, nil when absent.
func hexField(m map[string]string, k string) ([]byte, error) {
	v, ok := m[k]
	if !ok {
		return nil, nil
	}
	b, err := hex.DecodeString(v)
	if err != nil {
		return nil, fmt.Errorf("metadata %s: %w", k, err)
	}
	return b, nil
}

// decodeCustom returns the custom metadata stored in m, nil when none.
func decodeCustom(m map[string]string) (map[string]string, error) {
	if enc, ok := m[metaCustom]; ok {
		j, err := base64.RawURLEncoding.DecodeString(enc)
		if err != nil {
			return nil, fmt.Errorf("metadata %s: %w", metaCustom, err)
		}
		var custom map[string]string
		if err := json.Unmarshal(j, &custom); err != nil {
			return nil, fmt.Errorf("metadata %s: %w", metaCustom, err)
		}
		return custom, nil
	}
	var custom map[string]string
	for k, v := range m {
		if strings.HasPrefix(k, reservedPrefix) {
			continue
		}
		if custom == nil {
			custom = make(map[string]string)
		}
		custom[k] = v
	}
	return custom, nil
}
