package affinity

import (
	"errors"
	"net/http/httptest"
	"testing"
)

func TestMatch(t *testing.T) {
	m, err := Compile([]Rule{
		{Namespace: "Counter", Path: "/counter/{name}/..."},
		{Namespace: "ChatRoom", Path: "/chat/rooms/room-{name}.json"},
		{Namespace: "Exact", Path: "/exact/{name}"},
		{Namespace: "ByHeader", Header: "x-object"},
		{Namespace: "ByQuery", Query: "room"},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		target string
		header string
		want   Object
		ok     bool
	}{
		{"/counter/a", "", Object{"Counter", "a"}, true},
		{"/counter/a/", "", Object{"Counter", "a"}, true},
		{"/counter/a/increment?by=2", "", Object{"Counter", "a"}, true},
		{"/counter/a%20b/increment", "", Object{"Counter", "a b"}, true},
		{"/counter/", "", Object{}, false},
		{"/counter", "", Object{}, false},
		{"/counterx/a", "", Object{}, false},
		{"/chat/rooms/room-lobby.json", "", Object{"ChatRoom", "lobby"}, true},
		{"/chat/rooms/room-.json", "", Object{}, false},
		{"/chat/rooms/lobby.json", "", Object{}, false},
		{"/chat/rooms/room-lobby.json/more", "", Object{}, false},
		{"/exact/x", "", Object{"Exact", "x"}, true},
		{"/exact/x/", "", Object{"Exact", "x"}, true},
		{"/exact/x/y", "", Object{}, false},
		{"/other", "h1", Object{"ByHeader", "h1"}, true},
		{"/counter/a", "h1", Object{"Counter", "a"}, true}, // first rule wins
		{"/other?room=r1", "", Object{"ByQuery", "r1"}, true},
		{"/other?room=", "", Object{}, false},
		{"/", "", Object{}, false},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", tt.target, nil)
		if tt.header != "" {
			r.Header.Set("X-Object", tt.header)
		}
		got, ok := m.Match(r)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Match(%s, header %q) = %+v, %v; want %+v, %v", tt.target, tt.header, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []Rule{
		{Path: "/a/{name}"},
		{Namespace: "N"},
		{Namespace: "N", Path: "/a/{name}", Header: "X"},
		{Namespace: "N", Path: "a/{name}"},
		{Namespace: "N", Path: "/a/b"},
		{Namespace: "N", Path: "/{name}/{name}"},
		{Namespace: "N", Path: "/.../{name}"},
		{Namespace: "N", Path: "/{id}/{name}"},
		{Namespace: "N", Path: "/x{name}}"},
		{Namespace: "N", Header: "Bad Header"},
	}
	for _, r := range tests {
		if _, err := Compile([]Rule{r}); !errors.Is(err, ErrInvalidRule) {
			t.Errorf("Compile(%+v) = %v, want ErrInvalidRule", r, err)
		}
		if err := r.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil", r)
		}
	}
}

func BenchmarkMatchPath(b *testing.B) {
	m, _ := Compile([]Rule{{Namespace: "Counter", Path: "/counter/{name}/..."}})
	r := httptest.NewRequest("GET", "/counter/some-object/increment", nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := m.Match(r); !ok {
			b.Fatal("no match")
		}
	}
}
