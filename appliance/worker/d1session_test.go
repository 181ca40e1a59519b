package worker

import (
	"errors"
	"strings"
	"testing"
)

func TestD1BookmarkRoundTrip(t *testing.T) {
	for _, p := range []D1Position{{}, {Epoch: 1, Commit: 1}, {Epoch: 0xfedcba9876543211, Commit: 1 << 40}} {
		b := p.Bookmark()
		got, err := ParseD1Bookmark(b)
		if err != nil || got != p {
			t.Errorf("ParseD1Bookmark(%q) = %+v, %v; want %+v", b, got, err, p)
		}
	}
	a, b := D1Position{Epoch: 7, Commit: 9}.Bookmark(), D1Position{Epoch: 7, Commit: 10}.Bookmark()
	if a >= b {
		t.Errorf("bookmarks do not sort by commit: %q >= %q", a, b)
	}
}

func TestParseD1BookmarkRejects(t *testing.T) {
	good := D1Position{Epoch: 0xabc1, Commit: 5}.Bookmark()
	tests := []struct{ name, in, says string }{
		{"empty", "", "want <16 hex digits>"},
		{"constraint-like", "first-secondary", "want <16 hex digits>"},
		{"two fields", good[:33], "want <16 hex digits>"},
		{"upper case", strings.ToUpper(good), "lowercase"},
		{"not hex", "000000000000000g" + good[16:], "lowercase"},
		{"commit changed", "0000000000000006" + good[16:], "checksum"},
		{"epoch without commit", D1Position{Epoch: 3}.Bookmark(), "checksum"},
	}
	for _, tt := range tests {
		_, err := ParseD1Bookmark(tt.in)
		if !errors.Is(err, ErrD1Bookmark) || !strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), D1FirstPrimary) {
			t.Errorf("%s: ParseD1Bookmark(%q) = %v; want ErrD1Bookmark saying %q and naming %q", tt.name, tt.in, err, tt.says, D1FirstPrimary)
		}
	}
}

func TestD1PositionReached(t *testing.T) {
	db := D1Position{Epoch: 11, Commit: 20}
	tests := []struct {
		want D1Position
		err  error
	}{
		{D1Position{}, nil},
		{D1Position{Epoch: 11, Commit: 20}, nil},
		{D1Position{Epoch: 11, Commit: 3}, nil},
		{D1Position{Epoch: 11, Commit: 21}, ErrD1BookmarkAhead},
		{D1Position{Epoch: 13, Commit: 3}, ErrD1BookmarkOtherDatabase},
	}
	for _, tt := range tests {
		if err := db.Reached(tt.want); !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
			t.Errorf("%+v.Reached(%+v) = %v, want %v", db, tt.want, err, tt.err)
		}
	}
	if err := (D1Position{}).Reached(D1Position{Epoch: 11, Commit: 1}); !errors.Is(err, ErrD1BookmarkAhead) {
		t.Errorf("a database that never wrote reached a bookmark of commit 1: %v", err)
	}
}
