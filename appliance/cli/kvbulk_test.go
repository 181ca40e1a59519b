package cli

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestParseKVPair(t *testing.T) {
	tests := []struct {
		in         string
		want       kvPair
		unexpected []string
		ok         bool
	}{
		{`{"key":"a","value":"b"}`, kvPair{key: "a", value: "b"}, nil, true},
		{`{"key":"a","value":"aGk=","base64":true,"expiration":1700000000,"expiration_ttl":60,"metadata":{"x":1},"extra":2}`,
			kvPair{key: "a", value: "aGk=", base64: true, expiration: 1700000000, ttl: 60, metadata: json.RawMessage(`{"x":1}`)}, []string{"extra"}, true},
		{`{"key":"a"}`, kvPair{}, nil, false},
		{`{"key":"a","value":2}`, kvPair{}, nil, false},
		{`{"key":"a","value":"b","metadata":"text"}`, kvPair{}, nil, false},
		{`{"key":"a","value":"b","base64":"yes"}`, kvPair{}, nil, false},
		{`{"key":null,"value":"b"}`, kvPair{}, nil, false},
		{`"a"`, kvPair{}, nil, false},
	}
	for _, tt := range tests {
		got, unexpected, ok := parseKVPair(json.RawMessage(tt.in))
		if ok != tt.ok {
			t.Errorf("parseKVPair(%s) ok = %t, want %t", tt.in, ok, tt.ok)
			continue
		}
		if ok && (!reflect.DeepEqual(got, tt.want) || !reflect.DeepEqual(unexpected, tt.unexpected)) {
			t.Errorf("parseKVPair(%s) = %+v, %q; want %+v, %q", tt.in, got, unexpected, tt.want, tt.unexpected)
		}
	}
}

func TestKVPutOptions(t *testing.T) {
	tests := []struct {
		metadata        string
		ttl, expiration float64
		wantTTL         time.Duration
		wantExp         time.Time
		err             bool
	}{
		{"", 0, 0, 0, time.Time{}, false},
		{`{"a":1}`, 90, 0, 90 * time.Second, time.Time{}, false},
		{"", 0, 1700000000.5, 0, time.UnixMilli(1700000000500), false},
		{"{not json", 0, 0, 0, time.Time{}, true},
		{"", 60, 1700000000, 0, time.Time{}, true},
		{"", -1, 0, 0, time.Time{}, true},
	}
	for _, tt := range tests {
		got, err := kvPutOptions(tt.metadata, tt.ttl, tt.expiration)
		if (err != nil) != tt.err {
			t.Errorf("kvPutOptions(%q, %v, %v) error = %v, want error %t", tt.metadata, tt.ttl, tt.expiration, err, tt.err)
			continue
		}
		if err == nil && (got.ExpirationTTL != tt.wantTTL || !got.Expiration.Equal(tt.wantExp) || string(got.Metadata) != tt.metadata) {
			t.Errorf("kvPutOptions(%q, %v, %v) = %+v", tt.metadata, tt.ttl, tt.expiration, got)
		}
	}
}
