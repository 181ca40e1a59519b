package server

import "testing"

func TestRouterLongestPrefix(t *testing.T) {
	rt := newRouter([]route{{prefix: "/", name: "root"}, {prefix: "/chat/", name: "chat"}, {prefix: "/chat/admin/", name: "admin"}}, nil, "")
	tests := []struct{ path, want string }{
		{"/", "root"},
		{"/index.html", "root"},
		{"/chat", "chat"},
		{"/chat/rooms/a", "chat"},
		{"/chat/admin/x", "admin"},
		{"/chatter", "root"},
	}
	for _, tt := range tests {
		got, ok := rt.match(tt.path)
		if !ok || got.name != tt.want {
			t.Errorf("match(%q) = %q, %v; want %q", tt.path, got.name, ok, tt.want)
		}
	}
	if _, ok := newRouter([]route{{prefix: "/a/"}}, nil, "").match("/b"); ok {
		t.Error("/b matched /a/")
	}
}
