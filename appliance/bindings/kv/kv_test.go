package kv

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

func TestValidatePut(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 678_900_000, time.UTC)
	tests := []struct {
		name        string
		key         string
		value       []byte
		opts        *worker.KVPutOptions
		wantErr     error
		wantExpires time.Time
	}{
		{name: "plain", key: "k", value: []byte("v")},
		{name: "nil opts no expiry", key: strings.Repeat("k", MaxKeyLen), opts: nil},
		{name: "empty key", key: "", wantErr: worker.ErrKVKeyInvalid},
		{name: "dot", key: ".", wantErr: worker.ErrKVKeyInvalid},
		{name: "dotdot", key: "..", wantErr: worker.ErrKVKeyInvalid},
		{name: "long key", key: strings.Repeat("k", MaxKeyLen+1), wantErr: worker.ErrKVKeyInvalid},
		{name: "big value", key: "k", value: make([]byte, MaxValueLen+1), wantErr: worker.ErrKVValueTooLarge},
		{name: "bad metadata", key: "k", opts: &worker.KVPutOptions{Metadata: json.RawMessage(`{`)}, wantErr: worker.ErrKVMetadataInvalid},
		{name: "long metadata", key: "k", opts: &worker.KVPutOptions{Metadata: json.RawMessage(`"` + strings.Repeat("m", MaxMetadataLen-1) + `"`)}, wantErr: worker.ErrKVMetadataInvalid},
		{name: "max metadata", key: "k", opts: &worker.KVPutOptions{Metadata: json.RawMessage(`"` + strings.Repeat("m", MaxMetadataLen-2) + `"`)}},
		{name: "ttl", key: "k", opts: &worker.KVPutOptions{ExpirationTTL: 1500 * time.Millisecond},
			wantExpires: time.Date(2026, 1, 2, 3, 4, 7, 178_000_000, time.UTC)},
		{name: "absolute", key: "k", opts: &worker.KVPutOptions{Expiration: now.Add(time.Hour)},
			wantExpires: time.Date(2026, 1, 2, 4, 4, 5, 678_000_000, time.UTC)},
		{name: "both", key: "k", opts: &worker.KVPutOptions{Expiration: now.Add(time.Hour), ExpirationTTL: time.Hour}, wantErr: worker.ErrKVExpiration},
		{name: "negative ttl", key: "k", opts: &worker.KVPutOptions{ExpirationTTL: -time.Second}, wantErr: worker.ErrKVExpiration},
		{name: "past", key: "k", opts: &worker.KVPutOptions{Expiration: now}, wantErr: worker.ErrKVExpiration},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ValidatePut(tt.key, tt.value, tt.opts, now)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err == nil && !got.Expires.Equal(tt.wantExpires) {
				t.Errorf("Expires = %s, want %s", got.Expires, tt.wantExpires)
			}
		})
	}
}

func TestListLimit(t *testing.T) {
	tests := []struct {
		opts    *worker.KVListOptions
		want    int
		wantErr error
	}{
		{opts: nil, want: 1000},
		{opts: &worker.KVListOptions{}, want: 1000},
		{opts: &worker.KVListOptions{Limit: 7}, want: 7},
		{opts: &worker.KVListOptions{Limit: 1000}, want: 1000},
		{opts: &worker.KVListOptions{Limit: 1001}, wantErr: ErrListLimit},
		{opts: &worker.KVListOptions{Limit: -1}, wantErr: ErrListLimit},
	}
	for _, tt := range tests {
		got, err := ListLimit(tt.opts)
		if !errors.Is(err, tt.wantErr) || got != tt.want {
			t.Errorf("ListLimit(%+v) = %d, %v; want %d, %v", tt.opts, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestCursorRoundTrip(t *testing.T) {
	for _, key := range []string{"a", "\x00\xff", "ключ/ü", strings.Repeat("z", MaxKeyLen)} {
		got, err := DecodeCursor(EncodeCursor(key))
		if err != nil || got != key {
			t.Errorf("DecodeCursor(EncodeCursor(%q)) = %q, %v", key, got, err)
		}
	}
	if got, err := DecodeCursor(""); got != "" || err != nil {
		t.Errorf(`DecodeCursor("") = %q, %v; want "", nil`, got, err)
	}
	for _, bad := range []string{"!!", "AA", "Ag", EncodeCursor(strings.Repeat("z", MaxKeyLen+1))} {
		if _, err := DecodeCursor(bad); !errors.Is(err, ErrCursorInvalid) {
			t.Errorf("DecodeCursor(%q) err = %v, want ErrCursorInvalid", bad, err)
		}
	}
}

func TestPrefixEnd(t *testing.T) {
	tests := []struct {
		prefix string
		want   string
		ok     bool
	}{
		{"", "", false},
		{"a", "b", true},
		{"a/", "a0", true},
		{"a\xff", "b", true},
		{"\xff\xff", "", false},
	}
	for _, tt := range tests {
		got, ok := PrefixEnd(tt.prefix)
		if string(got) != tt.want || ok != tt.ok {
			t.Errorf("PrefixEnd(%q) = %q, %v; want %q, %v", tt.prefix, got, ok, tt.want, tt.ok)
		}
	}
}
