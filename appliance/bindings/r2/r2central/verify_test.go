package r2central

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// answer is a GET answer: a body with an ETag, and metadata that records
// the MD5 of recorded as the body's.
type answer struct{ body, etag, recorded string }

func (a answer) output() *s3.GetObjectOutput {
	return &s3.GetObjectOutput{
		Body:          io.NopCloser(strings.NewReader(a.body)),
		ContentLength: aws.Int64(int64(len(a.body))),
		ETag:          aws.String(`"` + a.etag + `"`),
		LastModified:  aws.Time(time.Unix(1700000000, 0)),
		Metadata:      map[string]string{metaVersion: "v", metaBodyMD5: md5Hex(a.recorded)},
	}
}

func md5Hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestGetVerified(t *testing.T) {
	const opaque = "0123456789abcdef0123456789abcdef" // an ETag that is no MD5
	newETag := md5Hex("new")
	tests := []struct {
		name     string
		mode     int32
		answers  []answer // the last one repeats
		wantGets int
		wantETag string
		wantErr  error
		wantMode int32
	}{
		{"consistent", etagsMD5, []answer{{"new", newETag, "new"}}, 1, newETag, nil, etagsMD5},
		{"torn body is fetched again", etagsMD5, []answer{{"old", newETag, "new"}, {"new", newETag, "new"}},
			2, newETag, nil, etagsMD5},
		{"torn ETag is corrected", etagsMD5, []answer{{"new", md5Hex("old"), "new"}}, 1, newETag, nil, etagsMD5},
		{"opaque ETags are kept", etagsOpaque, []answer{{"new", opaque, "new"}}, 1, opaque, nil, etagsOpaque},
		{"unknown ETags are learned", etagsUnknown, []answer{{"new", opaque, "new"}}, condAttempts, opaque, nil, etagsOpaque},
		{"always torn", etagsMD5, []answer{{"old", newETag, "new"}}, condAttempts, "", ErrTornRead, etagsMD5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gets := 0
			f := &fakeS3{get: func(*s3.GetObjectInput) (*s3.GetObjectOutput, error) {
				a := tt.answers[min(gets, len(tt.answers)-1)]
				gets++
				return a.output(), nil
			}}
			b := newFakeBucket(t, f)
			b.etags.Store(tt.mode)
			o, err := b.Get(t.Context(), "k", nil)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Get: err = %v, want %v", err, tt.wantErr)
			}
			if gets != tt.wantGets {
				t.Errorf("%d GETs, want %d", gets, tt.wantGets)
			}
			if got := b.etags.Load(); got != tt.wantMode {
				t.Errorf("ETag mode = %d, want %d", got, tt.wantMode)
			}
			if err != nil {
				return
			}
			body, err := io.ReadAll(o.Body)
			if err != nil || string(body) != "new" || o.ETag != tt.wantETag || o.HTTPETag != `"`+tt.wantETag+`"` {
				t.Errorf("Get = %q (%v) with ETag %s, want %q with %s", body, err, o.ETag, "new", tt.wantETag)
			}
		})
	}
}
