package jsprojects

import (
	"reflect"
	"testing"
	"time"

	"github.com/dwk/fleet/test/wait"
)

// rpcResult is the rpc worker's answer to a call: its result, or the
// error it caught.
type rpcResult struct {
	OK    any `json:"ok"`
	Error *struct {
		Message string
		IsError bool
	}
}

// testRPC drives a worker that calls a Durable Object by JavaScript RPC
// (structured values, a thrown error, storage, transactions, an alarm,
// fetch) and a second worker through a service binding.
func testRPC(t *testing.T, s *site) {
	vault := func(i int, name, op string) string { return s.url(i, "/rpc/vault/"+name+"/"+op) }
	call := func(i int, method, url string, body any) rpcResult {
		t.Helper()
		var r rpcResult
		do(t, method, url, body).want(t, 200, url).json(t, &r)
		return r
	}
	ok := func(i int, method, url string, body any) any {
		t.Helper()
		r := call(i, method, url, body)
		if r.Error != nil {
			t.Fatalf("%s %s threw %q", method, url, r.Error.Message)
		}
		return r.OK
	}

	t.Run("structured values", func(t *testing.T) {
		var got map[string]any
		do(t, "POST", vault(0, "shapes", "roundtrip"), map[string]any{
			"when": "2024-02-29T12:00:00Z", "tags": map[string]int{"a": 1, "b": 2}, "list": []any{1, map[string]any{"deep": []bool{true}}}, "flags": []string{"y", "x"},
		}).want(t, 200, "roundtrip").json(t, &got)
		want := map[string]any{
			"isDate": true, "isMap": true, "isSet": true, "total": 3.0,
			"later":         map[string]any{"date": "2024-03-01T12:00:00.000Z"},
			"inverted":      map[string]any{"map": []any{[]any{1.0, "a"}, []any{2.0, "b"}}},
			"nested":        map[string]any{"list": []any{1.0, map[string]any{"deep": []any{true}}}, "flags": []any{"x", "y"}, "depth": 4.0},
			"laterIsDate":   true,
			"invertedIsMap": true,
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("roundtrip:\n got %v\nwant %v", got, want)
		}
	})

	t.Run("thrown error", func(t *testing.T) {
		r := call(1, "GET", vault(1, "shapes", "fail?message=vault+sealed%3A+try+later"), nil)
		if r.Error == nil || r.Error.Message != "vault sealed: try later" || !r.Error.IsError {
			t.Errorf("caught %+v, want an Error with the thrown message", r.Error)
		}
	})

	t.Run("storage", func(t *testing.T) {
		name := "bank"
		if n := ok(0, "POST", vault(0, name, "put"), map[string]any{"bal:alice": 100, "bal:bob": 0, "bal:carol": 5, "note": map[string]any{"text": "hi", "n": []int{1, 2}}}); n != 4.0 {
			t.Errorf("put answered %v, want 4", n)
		}
		got := ok(1, "GET", vault(1, name, "get?key=bal:alice&key=note&key=absent"), nil)
		if want := map[string]any{"bal:alice": 100.0, "note": map[string]any{"text": "hi", "n": []any{1.0, 2.0}}}; !reflect.DeepEqual(got, want) {
			t.Errorf("get = %v, want %v (absent keys left out)", got, want)
		}
		pairs := func(kv ...any) []any {
			var out []any
			for i := 0; i < len(kv); i += 2 {
				out = append(out, []any{kv[i], kv[i+1]})
			}
			return out
		}
		for _, tc := range []struct {
			q    string
			want []any
		}{
			{"prefix=bal:", pairs("bal:alice", 100.0, "bal:bob", 0.0, "bal:carol", 5.0)},
			{"prefix=bal:&reverse=true&limit=2", pairs("bal:carol", 5.0, "bal:bob", 0.0)},
			{"start=bal:b&end=bal:c", pairs("bal:bob", 0.0)},
			{"start=n", pairs("note", map[string]any{"text": "hi", "n": []any{1.0, 2.0}})},
		} {
			if got := ok(0, "GET", vault(0, name, "list?"+tc.q), nil); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("list %s = %v, want %v", tc.q, got, tc.want)
			}
		}
		if got := ok(1, "POST", vault(1, name, "transfer"), map[string]any{"from": "bal:alice", "to": "bal:bob", "amount": 30}); !reflect.DeepEqual(got, map[string]any{"bal:alice": 70.0, "bal:bob": 30.0}) {
			t.Errorf("transfer = %v", got)
		}
		r := call(0, "POST", vault(0, name, "transfer"), map[string]any{"from": "bal:carol", "to": "bal:bob", "amount": 50})
		if r.Error == nil || r.Error.Message != "insufficient funds: bal:carol has 5, needs 50" {
			t.Errorf("an overdraft: got %+v, want the transaction's error", r)
		}
		if got := ok(1, "GET", vault(1, name, "list?prefix=bal:"), nil); !reflect.DeepEqual(got, pairs("bal:alice", 70.0, "bal:bob", 30.0, "bal:carol", 5.0)) {
			t.Errorf("after a failed transaction: %v, want its puts undone", got)
		}
		if n := ok(0, "POST", vault(0, name, "delete"), []string{"note", "absent"}); n != 1.0 {
			t.Errorf("delete answered %v, want 1 (of the 2 keys, 1 existed)", n)
		}
		if got := ok(0, "GET", vault(0, name, "list?start=n"), nil); got != nil && len(got.([]any)) != 0 {
			t.Errorf("after delete: %v", got)
		}
		if same := ok(1, "POST", vault(1, name, "stamp"), map[string]any{"at": "2020-01-01T00:00:00Z"}); same != true {
			t.Error("a Date put in storage did not come back as the same Date")
		}
	})

	t.Run("alarm", func(t *testing.T) {
		name := "alarmed"
		at, _ := ok(0, "POST", vault(0, name, "arm?in=500"), nil).(float64)
		if d := time.Until(time.UnixMilli(int64(at))); d <= 0 || d > 5*time.Second {
			t.Fatalf("setAlarm(now+500ms); getAlarm() = %v, %v from now", at, d)
		}
		type state struct {
			Scheduled *float64
			Rang      int
			Last      *struct{ At, RetryCount float64 }
		}
		var st state
		wait.Within(t, 30*time.Second, "the alarm to ring", func() bool {
			st = state{}
			r := call(1, "GET", vault(1, name, "alarm"), nil)
			b, _ := jsonOf(r.OK)
			jsonInto(t, b, &st)
			return st.Rang > 0
		})
		if st.Rang != 1 || st.Scheduled != nil || st.Last == nil || st.Last.At < at || st.Last.RetryCount != 0 {
			t.Errorf("after the alarm: %+v, want rung once at or after %v, none scheduled", st, at)
		}
	})

	t.Run("fetch", func(t *testing.T) {
		for i := range 3 {
			var got struct {
				Name string
				Hits int
				Path string
				ID   string
			}
			do(t, "GET", vault(i, "counted", "fetch"), nil).want(t, 200, "stub.fetch").json(t, &got)
			if got.Name != "counted" || got.Hits != i+1 || got.Path != "/inside" || len(got.ID) != 64 {
				t.Errorf("fetch %d through door %d: %+v, want hit %d of the one object", i, i%len(s.doors), got, i+1)
			}
		}
	})

	t.Run("service binding", func(t *testing.T) {
		var f map[string]any
		do(t, "GET", s.url(1, "/rpc/svc/fetch?name=zed"), nil).want(t, 200, "fetch through the binding").json(t, &f)
		want := map[string]any{"worker": "rpc-helper", "method": "POST", "url": "https://helper.internal/greet?name=zed", "name": "zed", "body": "from rpc", "greeting": "hello"}
		if !reflect.DeepEqual(f, want) {
			t.Errorf("the helper saw %v, want %v", f, want)
		}
		for _, tc := range []struct {
			path string
			want rpcResult
		}{
			{"/rpc/svc/add?a=2&b=40", rpcResult{OK: 42.0}},
			{"/rpc/svc/greet?name=al", rpcResult{OK: map[string]any{"text": "hello, al", "at": map[string]any{"date": "1970-01-01T00:00:01.000Z"}, "seenDate": true}}},
		} {
			if got := call(0, "GET", s.url(0, tc.path), nil); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s = %+v, want %+v", tc.path, describe(got), describe(tc.want))
			}
		}
		r := call(1, "GET", s.url(1, "/rpc/svc/fail?message=out+of+range"), nil)
		if r.Error == nil || r.Error.Message != "out of range" || !r.Error.IsError {
			t.Errorf("a method that throws: got %s, want its RangeError's message", describe(r))
		}
	})
}

// describe prints an rpcResult with its error.
func describe(r rpcResult) string {
	b, _ := jsonOf(r)
	return string(b)
}
