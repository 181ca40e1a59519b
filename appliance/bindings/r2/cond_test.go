package r2

import (
	"errors"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

func TestCheckConditional(t *testing.T) {
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	obj := &worker.R2Object{ETag: "abc", Uploaded: at}
	before, after := at.Add(-time.Second), at.Add(time.Second)
	tests := []struct {
		name string
		c    *worker.R2Conditional
		cur  *worker.R2Object
		ok   bool
	}{
		{"nil", nil, obj, true},
		{"empty", &worker.R2Conditional{}, obj, true},
		{"match", &worker.R2Conditional{EtagMatches: "abc"}, obj, true},
		{"match quoted", &worker.R2Conditional{EtagMatches: `"abc"`}, obj, true},
		{"match list", &worker.R2Conditional{EtagMatches: `"x", "abc"`}, obj, true},
		{"match weak is strong-compared", &worker.R2Conditional{EtagMatches: `W/"abc"`}, obj, false},
		{"match star", &worker.R2Conditional{EtagMatches: "*"}, obj, true},
		{"match other", &worker.R2Conditional{EtagMatches: "x"}, obj, false},
		{"match missing", &worker.R2Conditional{EtagMatches: "*"}, nil, false},
		{"no-match other", &worker.R2Conditional{EtagDoesNotMatch: "x"}, obj, true},
		{"no-match same", &worker.R2Conditional{EtagDoesNotMatch: "abc"}, obj, false},
		{"no-match weak", &worker.R2Conditional{EtagDoesNotMatch: `W/"abc"`}, obj, false},
		{"no-match star", &worker.R2Conditional{EtagDoesNotMatch: "*"}, obj, false},
		{"no-match star missing", &worker.R2Conditional{EtagDoesNotMatch: "*"}, nil, true},
		{"before later", &worker.R2Conditional{UploadedBefore: after}, obj, true},
		{"before equal", &worker.R2Conditional{UploadedBefore: at}, obj, true},
		{"before earlier", &worker.R2Conditional{UploadedBefore: before}, obj, false},
		{"before missing", &worker.R2Conditional{UploadedBefore: before}, nil, true},
		{"after earlier", &worker.R2Conditional{UploadedAfter: before}, obj, true},
		{"after equal", &worker.R2Conditional{UploadedAfter: at}, obj, false},
		{"after later", &worker.R2Conditional{UploadedAfter: after}, obj, false},
		{"after missing", &worker.R2Conditional{UploadedAfter: after}, nil, true},
		{"match wins over before", &worker.R2Conditional{EtagMatches: "abc", UploadedBefore: before}, obj, true},
		{"no-match wins over after", &worker.R2Conditional{EtagDoesNotMatch: "x", UploadedAfter: after}, obj, true},
		{"match fails first", &worker.R2Conditional{EtagMatches: "x", EtagDoesNotMatch: "y"}, obj, false},
		{"both pairs pass", &worker.R2Conditional{EtagMatches: "abc", EtagDoesNotMatch: "y"}, obj, true},
		{"before passes, after fails", &worker.R2Conditional{UploadedBefore: after, UploadedAfter: after}, obj, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckConditional(tt.c, tt.cur)
			if got := err == nil; got != tt.ok {
				t.Fatalf("ok = %v, want %v (err %v)", got, tt.ok, err)
			}
			if err != nil && !errors.Is(err, worker.ErrPreconditionFailed) {
				t.Errorf("err = %v, want ErrPreconditionFailed", err)
			}
		})
	}
}
