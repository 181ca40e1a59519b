package membership

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestValidate(t *testing.T) {
	ok := member("a", StateReady)
	tests := []struct {
		name string
		m    Member
		want error
	}{
		{"ok", ok, nil},
		{"no id", Member{State: StateReady, Internal: "x"}, ErrInvalidMember},
		{"long id", Member{ID: strings.Repeat("x", MaxIDLen+1), State: StateReady, Internal: "x"}, ErrInvalidMember},
		{"bad utf-8", Member{ID: "\xff", State: StateReady, Internal: "x"}, ErrInvalidMember},
		{"gone is not a state", Member{ID: "a", State: "gone", Internal: "x"}, ErrInvalidMember},
		{"no internal address", Member{ID: "a", State: StateReady}, ErrInvalidMember},
	}
	for _, tt := range tests {
		if got := tt.m.Validate(); !errors.Is(got, tt.want) || (tt.want == nil) != (got == nil) {
			t.Errorf("%s: Validate = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	m := member("a", StateDraining)
	m.Admin, m.ConfigHash, m.Heartbeat = "a:9090", "abc", epoch.Add(time.Second)
	m.Expires = epoch.Add(time.Hour) // not stored
	b, err := m.encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	want := m
	want.Expires = time.Time{}
	if got != want {
		t.Errorf("decode(encode) = %+v, want %+v", got, want)
	}
	if _, err := decode([]byte(`{"state":"ready"}`)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("decode without id: %v, want ErrCorrupt", err)
	}
	if _, err := decode([]byte(`not json`)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("decode of garbage: %v, want ErrCorrupt", err)
	}
	if got, err := decode([]byte(`{"id":"a","state":"ready","internal":"x","zone":"eu"}`)); err != nil || got.ID != "a" {
		t.Errorf("decode with a field from a newer version = %+v, %v; want it ignored", got, err)
	}
}

func TestSameAsIgnoresTimes(t *testing.T) {
	a := member("a", StateReady)
	b := a
	b.Heartbeat, b.Expires = epoch.Add(time.Minute), epoch.Add(time.Hour)
	if !a.sameAs(b) {
		t.Error("records differing only in heartbeat and expiry are not the same")
	}
	for name, change := range map[string]func(*Member){
		"state":    func(m *Member) { m.State = StateDraining },
		"internal": func(m *Member) { m.Internal = "other:1" },
		"version":  func(m *Member) { m.Version = "v2" },
		"config":   func(m *Member) { m.ConfigHash = "x" },
		"started":  func(m *Member) { m.Started = epoch.Add(time.Second) },
	} {
		c := a
		change(&c)
		if a.sameAs(c) {
			t.Errorf("a change of %s went unnoticed", name)
		}
	}
}
