package r2central_test

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/s3server"
)

// TestKeyPrefix checks that R2 buckets sharing one S3 bucket under
// different prefixes see only their own keys, in R2 terms.
func TestKeyPrefix(t *testing.T) {
	srv := s3server.Start(t)
	bucket, root := srv.NewPrefix(t)
	uploads := open(t, srv, bucket, root+"r2/uploads/")
	avatars := open(t, srv, bucket, root+"r2/avatars/")
	ctx := t.Context()

	for _, key := range []string{"a/1", "a/2", "b", "c/d/e"} {
		if _, err := uploads.Put(ctx, key, strings.NewReader(key), nil); err != nil {
			t.Fatalf("Put(%q): %v", key, err)
		}
	}
	if _, err := avatars.Put(ctx, "a/1", strings.NewReader("avatar"), nil); err != nil {
		t.Fatalf("Put: %v", err)
	}

	// The S3 key is the prefix and the R2 key.
	raw, err := srv.Client().HeadObject(ctx, &s3.HeadObjectInput{
		Bucket: aws.String(bucket), Key: aws.String(root + "r2/uploads/c/d/e"),
	})
	if err != nil {
		t.Fatalf("raw HeadObject: %v", err)
	}
	if got := aws.ToInt64(raw.ContentLength); got != int64(len("c/d/e")) {
		t.Errorf("raw object size = %d, want %d", got, len("c/d/e"))
	}

	tests := []struct {
		name     string
		opts     worker.R2ListOptions
		objects  []string
		prefixes []string
	}{
		{"all", worker.R2ListOptions{}, []string{"a/1", "a/2", "b", "c/d/e"}, nil},
		{"delimited", worker.R2ListOptions{Delimiter: "/"}, []string{"b"}, []string{"a/", "c/"}},
		{"prefix and delimiter", worker.R2ListOptions{Prefix: "c/", Delimiter: "/"}, nil, []string{"c/d/"}},
		{"start after", worker.R2ListOptions{StartAfter: "a/2"}, []string{"b", "c/d/e"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, err := uploads.List(ctx, &tt.opts)
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			var keys []string
			for _, o := range page.Objects {
				keys = append(keys, o.Key)
			}
			if !slices.Equal(keys, tt.objects) || !slices.Equal(page.DelimitedPrefixes, tt.prefixes) {
				t.Errorf("List = %q %q, want %q %q", keys, page.DelimitedPrefixes, tt.objects, tt.prefixes)
			}
		})
	}

	o, err := avatars.Get(ctx, "a/1", nil)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	defer o.Body.Close()
	if o.Key != "a/1" || o.Size != int64(len("avatar")) {
		t.Errorf("avatars a/1 = %q of %d bytes, want a/1 of %d", o.Key, o.Size, len("avatar"))
	}
	if err := avatars.Delete(ctx, "b"); err != nil {
		t.Fatalf("Delete of another prefix's key: %v", err)
	}
	if _, err := uploads.Head(ctx, "b"); err != nil {
		t.Errorf("Head after another prefix deleted the same key: %v", err)
	}
}

// TestKeyPrefixLimitsKeyLength checks that a key that would make an S3 key
// over 1024 bytes is rejected as invalid before the store is asked.
func TestKeyPrefixLimitsKeyLength(t *testing.T) {
	srv := s3server.Start(t)
	bucket, root := srv.NewPrefix(t)
	prefix := root + "r2/long/"
	b := open(t, srv, bucket, prefix)
	// Path segments of at most 200 bytes, for stores that map keys to files.
	var sb strings.Builder
	for 1024-len(prefix)-sb.Len() > 201 {
		sb.WriteString(strings.Repeat("k", 200) + "/")
	}
	sb.WriteString(strings.Repeat("k", 1024-len(prefix)-sb.Len()))
	fits := sb.String()
	if _, err := b.Put(t.Context(), fits, strings.NewReader("x"), nil); err != nil {
		t.Fatalf("Put of a key that fits: %v", err)
	}
	_, err := b.Put(t.Context(), fits+"k", strings.NewReader("x"), nil)
	if !errors.Is(err, worker.ErrR2KeyInvalid) {
		t.Errorf("Put of a key one byte too long: err = %v, want ErrR2KeyInvalid", err)
	}
}

// TestMetadataEncoding checks custom metadata that S3 headers cannot carry
// as is, and that plain metadata is stored as ordinary x-amz-meta headers
// other S3 clients read.
func TestMetadataEncoding(t *testing.T) {
	srv := s3server.Start(t)
	bucket := srv.NewBucket(t)
	b := open(t, srv, bucket, "")
	ctx := t.Context()
	tests := []struct {
		name   string
		custom map[string]string
		raw    map[string]string // x-amz-meta headers other clients see, if plain
	}{
		{"plain", map[string]string{"owner": "alice", "build-id": "42"}, map[string]string{"owner": "alice", "build-id": "42"}},
		{"upper-case key", map[string]string{"Owner": "alice"}, nil},
		{"unicode value", map[string]string{"title": "Grüße, 世界 🙂"}, nil},
		{"reserved-looking key", map[string]string{"dwk-version": "mine"}, nil},
		{"spaces and encoded words", map[string]string{"a": " padded ", "b": "=?UTF-8?B?eA==?="}, nil},
		{"empty value", map[string]string{"empty": ""}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := strings.ReplaceAll(tt.name, " ", "-")
			put, err := b.Put(ctx, key, bytes.NewReader([]byte("x")), &worker.R2PutOptions{CustomMetadata: tt.custom})
			if err != nil {
				t.Fatalf("Put: %v", err)
			}
			h, err := b.Head(ctx, key)
			if err != nil {
				t.Fatalf("Head: %v", err)
			}
			if !maps.Equal(h.CustomMetadata, tt.custom) {
				t.Errorf("Head: CustomMetadata = %q, want %q", h.CustomMetadata, tt.custom)
			}
			if h.Version != put.Version {
				t.Errorf("Head: Version = %q, want %q", h.Version, put.Version)
			}
			if tt.raw == nil {
				return
			}
			out, err := srv.Client().HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
			if err != nil {
				t.Fatalf("raw HeadObject: %v", err)
			}
			for k, v := range tt.raw {
				if out.Metadata[k] != v {
					t.Errorf("raw x-amz-meta-%s = %q, want %q (all: %q)", k, out.Metadata[k], v, out.Metadata)
				}
			}
		})
	}
}
