package fleetview

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
)

func TestSnapshot(t *testing.T) {
	s := NewSnapshot([]Member{
		{ID: "c", Dial: "c:1"}, {ID: "a", Dial: "a:1"}, {ID: "", Dial: "x:1"},
		{ID: "b", Dial: ""}, {ID: "a", Dial: "dup:1"},
	})
	var ids []string
	for _, m := range s.Members() {
		ids = append(ids, m.ID)
	}
	if want := []string{"a", "c"}; !slices.Equal(ids, want) {
		t.Errorf("members %v, want %v (sorted, incomplete and duplicate ids dropped)", ids, want)
	}
	if id, ok := s.IDOf("c:1"); !ok || id != "c" {
		t.Errorf("IDOf(c:1) = %q, %v", id, ok)
	}
	if d, ok := s.DialOf("a"); !ok || d != "a:1" {
		t.Errorf("DialOf(a) = %q, %v", d, ok)
	}
	if _, ok := s.IDOf("dup:1"); ok {
		t.Error("the duplicate's dial address is known")
	}
	if s.Len() != 2 {
		t.Errorf("Len = %d", s.Len())
	}
}

func TestAttach(t *testing.T) {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	if From(r) != nil {
		t.Error("From on a request Caddy did not prepare is not nil")
	}
	Attach(r, &View{}) // no variables: nothing happens, nothing panics
	r = caddyhttp.PrepareRequest(r, caddy.NewReplacer(), nil, &caddyhttp.Server{})
	v := &View{Members: NewSnapshot(nil)}
	Attach(r, v)
	// The reverse proxy hands Select a clone with the same context.
	if got := From(r.Clone(context.Background())); got != nil {
		t.Error("a clone with a fresh context sees the view")
	}
	if got := From(r.Clone(r.Context())); got != v {
		t.Errorf("From = %p, want %p", got, v)
	}
}
