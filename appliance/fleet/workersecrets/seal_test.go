package workersecrets

import (
	"bytes"
	"errors"
	"testing"
)

func TestSealOpens(t *testing.T) {
	s := mustSealer(t, "fleet-secret", "prod")
	sealed := s.seal("api", "API_TOKEN", []byte("tok-123"))
	if bytes.Contains(sealed, []byte("tok-123")) {
		t.Fatal("the sealed bytes hold the value in clear")
	}
	got, err := s.open("api", "API_TOKEN", sealed)
	if err != nil || string(got) != "tok-123" {
		t.Fatalf("open = %q, %v; want the value", got, err)
	}
	if again := s.seal("api", "API_TOKEN", []byte("tok-123")); bytes.Equal(again, sealed) {
		t.Error("two seals of one value are equal: the nonce is not fresh")
	}
}

func TestSealRefuses(t *testing.T) {
	s := mustSealer(t, "fleet-secret", "prod")
	sealed := s.seal("api", "API_TOKEN", []byte("tok-123"))
	flipped := bytes.Clone(sealed)
	flipped[len(flipped)-1] ^= 1
	version := bytes.Clone(sealed)
	version[0] = 9
	for _, tc := range []struct {
		name        string
		s           *sealer
		worker, key string
		sealed      []byte
		want        error
	}{
		{"another fleet.secret", mustSealer(t, "other-secret", "prod"), "api", "API_TOKEN", sealed, ErrWrongSecret},
		{"another fleet", mustSealer(t, "fleet-secret", "staging"), "api", "API_TOKEN", sealed, ErrWrongSecret},
		{"another worker", s, "web", "API_TOKEN", sealed, ErrCorrupt},
		{"another name", s, "api", "OTHER", sealed, ErrCorrupt},
		{"a flipped bit", s, "api", "API_TOKEN", flipped, ErrCorrupt},
		{"another version", s, "api", "API_TOKEN", version, ErrCorrupt},
		{"too short", s, "api", "API_TOKEN", sealed[:sealOverhead-1], ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.s.open(tc.worker, tc.key, tc.sealed)
			if !errors.Is(err, tc.want) {
				t.Fatalf("open = %q, %v; want %v", got, err, tc.want)
			}
			if bytes.Contains([]byte(err.Error()), []byte("tok-123")) {
				t.Errorf("the error shows the value: %v", err)
			}
		})
	}
}

func TestNewSealerNeedsSecretAndFleet(t *testing.T) {
	if _, err := newSealer(nil, "prod"); err == nil {
		t.Error("an empty fleet.secret was accepted")
	}
	if _, err := newSealer([]byte("s"), ""); err == nil {
		t.Error("an empty fleet name was accepted")
	}
}

func mustSealer(t *testing.T, secret, fleet string) *sealer {
	t.Helper()
	s, err := newSealer([]byte(secret), fleet)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
