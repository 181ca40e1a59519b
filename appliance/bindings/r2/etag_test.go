package r2

import (
	"crypto/md5"
	"testing"
)

func TestETag(t *testing.T) {
	sum := md5.Sum([]byte("hello"))
	if got, want := ETag(sum[:]), "5d41402abc4b2a76b9719d911017c592"; got != want {
		t.Errorf("ETag = %q, want %q", got, want)
	}
	if got, want := QuoteETag("abc"), `"abc"`; got != want {
		t.Errorf("QuoteETag = %q, want %q", got, want)
	}
}

func TestMultipartETag(t *testing.T) {
	a, b := md5.Sum([]byte("a")), md5.Sum([]byte("b"))
	want := md5.Sum(append(a[:], b[:]...))
	if got, want := MultipartETag([][]byte{a[:], b[:]}), ETag(want[:])+"-2"; got != want {
		t.Errorf("MultipartETag = %q, want %q", got, want)
	}
}

func TestUnquoteETag(t *testing.T) {
	tests := []struct {
		in, want string
		weak     bool
	}{
		{"abc", "abc", false},
		{`"abc"`, "abc", false},
		{` "abc" `, "abc", false},
		{`W/"abc"`, "abc", true},
		{`"`, `"`, false},
	}
	for _, tt := range tests {
		got, weak := UnquoteETag(tt.in)
		if got != tt.want || weak != tt.weak {
			t.Errorf("UnquoteETag(%q) = %q, %v; want %q, %v", tt.in, got, weak, tt.want, tt.weak)
		}
	}
}
