package migrate

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/procs"
	"github.com/dwk/fleet/test/s3server"
)

// TestImportR2FromS3 imports a bucket from an S3 endpoint (versitygw, in
// the place of R2's S3 API) into a local data directory's R2 bucket with
// `dwk import cloudflare r2`: every object arrives with its body, content
// type and custom metadata, a multipart one included with its ETag; a
// second import skips them all.
func TestImportR2FromS3(t *testing.T) {
	ctx := context.Background()
	srv := s3server.Start(t)
	bucket := srv.NewBucket(t)
	c := srv.Client()
	if _, err := c.PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(bucket), Key: aws.String("docs/readme.txt"), Body: strings.NewReader("hello from r2"),
		ContentType: aws.String("text/plain"), Metadata: map[string]string{"owner": "ann"},
	}); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), (6<<20)/16)
	up, err := c.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: aws.String(bucket), Key: aws.String("big.bin"), ContentType: aws.String("application/octet-stream")})
	if err != nil {
		t.Fatal(err)
	}
	var parts []types.CompletedPart
	for i, chunk := range [][]byte{big[:5<<20], big[5<<20:]} {
		p, err := c.UploadPart(ctx, &s3.UploadPartInput{Bucket: aws.String(bucket), Key: aws.String("big.bin"), UploadId: up.UploadId, PartNumber: aws.Int32(int32(i + 1)), Body: bytes.NewReader(chunk)})
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, types.CompletedPart{ETag: p.ETag, PartNumber: aws.Int32(int32(i + 1))})
	}
	done, err := c.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: aws.String(bucket), Key: aws.String("big.bin"), UploadId: up.UploadId, MultipartUpload: &types.CompletedMultipartUpload{Parts: parts}})
	if err != nil {
		t.Fatal(err)
	}
	bigETag := strings.Trim(aws.ToString(done.ETag), `"`)
	if !strings.HasSuffix(bigETag, "-2") {
		t.Fatalf("versitygw answered a 2-part upload with ETag %q, not a multipart one", bigETag)
	}

	dir := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "dwk.json")
	b, _ := config.Encode(&config.Config{Workers: []config.Worker{{Name: "counter", Bindings: config.Bindings{R2: map[string]string{"FILES": "files"}}}}})
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	run := func() string {
		t.Helper()
		p := procs.Start(t, "dwk import", procs.Binary(t), []string{"AWS_ACCESS_KEY_ID=" + srv.AccessKey, "AWS_SECRET_ACCESS_KEY=" + srv.SecretKey},
			"import", "cloudflare", "r2", bucket, "--endpoint", srv.Endpoint, "--region", srv.Region, "--path-style", "--to", "files",
			"--local", "--data-dir", dir, "--config", cfg)
		if code, err := p.Wait(2 * 60e9); err != nil || code != 0 {
			t.Fatalf("dwk import: exit %d, %v\n%s", code, err, p.Output())
		}
		return p.Output()
	}
	out := run()
	if !strings.Contains(out, "│ 2       │") || strings.Count(out, "│ yes") != 1 {
		t.Fatalf("the import did not copy and verify 2 objects:\n%s", out)
	}
	if again := run(); !regexpSkipped2.MatchString(again) {
		t.Errorf("a second import copied again:\n%s", again)
	}

	_, st, closeDir := openDir(t, dir)
	defer closeDir()
	r2, _ := st.R2("files")
	o, err := r2.Get(ctx, "docs/readme.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(o.Body)
	o.Body.Close()
	if string(body) != "hello from r2" || o.HTTPMetadata.ContentType != "text/plain" || o.CustomMetadata["owner"] != "ann" {
		t.Errorf("imported object: %q, %+v, %v", body, o.HTTPMetadata, o.CustomMetadata)
	}
	o, err = r2.Get(ctx, "big.bin", nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(o.Body)
	o.Body.Close()
	if !bytes.Equal(body, big) {
		t.Errorf("the multipart object arrived with %d bytes, want %d equal ones", len(body), len(big))
	}
	if o.ETag != bigETag {
		t.Errorf("the multipart object arrived with ETag %s, want the source's %s", o.ETag, bigETag)
	}
}

// regexpSkipped2 matches a table row with two objects, none copied or
// replaced, both skipped, verified.
var regexpSkipped2 = regexp.MustCompile(`│ r2\s+│ files\s+│ 2\s+│ \d+\s+│ 0\s+│ 0\s+│ 2\s+│ yes`)
