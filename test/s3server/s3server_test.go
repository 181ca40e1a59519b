package s3server

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

func TestStartStopRestart(t *testing.T) {
	s := Start(t)
	bucket := s.NewBucket(t)
	ctx := t.Context()
	key := "hello.txt"
	if s.External() {
		_, prefix := s.NewPrefix(t)
		key = prefix + key
	}
	want := []byte("hello, world")
	_, err := s.Client().PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(want),
	})
	if err != nil {
		t.Fatalf("PutObject: %v", err)
	}
	if s.External() {
		t.Skip("Stop and Restart need the local gateway")
	}

	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	down, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err = s.Client().HeadObject(down, &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)},
		func(o *s3.Options) { o.RetryMaxAttempts = 1 })
	if err == nil {
		t.Fatal("HeadObject succeeded while the gateway was stopped")
	}

	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	out, err := s.Client().GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if err != nil {
		t.Fatalf("GetObject after restart: %v", err)
	}
	got, err := io.ReadAll(out.Body)
	out.Body.Close()
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("body after restart = %q, %v; want %q", got, err, want)
	}
}

func TestNewPrefixIsUnique(t *testing.T) {
	s := Start(t)
	b1, p1 := s.NewPrefix(t)
	b2, p2 := s.NewPrefix(t)
	if b1 != b2 {
		t.Errorf("NewPrefix buckets differ: %q, %q", b1, b2)
	}
	if p1 == p2 {
		t.Errorf("NewPrefix returned %q twice", p1)
	}
}
