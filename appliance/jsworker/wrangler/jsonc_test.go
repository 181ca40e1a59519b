package wrangler

import "testing"

func TestStripJSONC(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain JSON is untouched", `{"a": [1, 2]}`, `{"a": [1, 2]}`},
		{"line comment", "{\"a\": 1 // one\n}", "{\"a\": 1       \n}"},
		{"block comment keeps newlines", "{/* a\nb */\"a\": 1}", "{    \n    \"a\": 1}"},
		{"comment markers in strings stay", `{"u": "http://x/*y*/"}`, `{"u": "http://x/*y*/"}`},
		{"escaped quote in string", `{"q": "a\"//b"}`, `{"q": "a\"//b"}`},
		{"trailing comma in array", `[1, 2, ]`, `[1, 2  ]`},
		{"trailing comma in object", "{\"a\": 1,\n}", "{\"a\": 1 \n}"},
		{"trailing comma before comment", "[1, // last\n]", "[1         \n]"},
		{"comma in string stays", `{"a": ",]"}`, `{"a": ",]"}`},
		{"CRLF line comment", "{\"a\": 1 // x\r\n}", "{\"a\": 1     \r\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := stripJSONC([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if len(got) != len(tt.in) {
				t.Errorf("length %d, want %d: offsets must stay", len(got), len(tt.in))
			}
		})
	}
}

func TestStripJSONCUnclosedComment(t *testing.T) {
	_, err := stripJSONC([]byte("{\n  \"a\": 1 /* never closed\n}"))
	want := "line 2, column 10: a /* comment is never closed with */"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

func TestParseTreeSameInEveryFormat(t *testing.T) {
	want := map[string]any{
		"name": "w",
		"n":    42.0,
		"f":    1.5,
		"ok":   true,
		"list": []any{"a", 1.0},
		"obj":  map[string]any{"k": "v"},
		"arr":  []any{map[string]any{"x": 1.0}, map[string]any{"x": 2.0}},
	}
	sources := map[string]string{
		"wrangler.toml": "name = \"w\"\nn = 42\nf = 1.5\nok = true\nlist = [\"a\", 1]\nobj = { k = \"v\" }\n[[arr]]\nx = 1\n[[arr]]\nx = 2\n",
		"wrangler.json": `{"name": "w", "n": 42, "f": 1.5, "ok": true, "list": ["a", 1], "obj": {"k": "v"}, "arr": [{"x": 1}, {"x": 2}]}`,
		"wrangler.jsonc": "\xef\xbb\xbf{\"name\": \"w\", /* c */ \"n\": 42, \"f\": 1.5, \"ok\": true, \"list\": [\"a\", 1,],\n" +
			"\"obj\": {\"k\": \"v\",}, \"arr\": [{\"x\": 1}, {\"x\": 2}], // end\n}",
	}
	for name, src := range sources {
		t.Run(name, func(t *testing.T) {
			got, err := parseTree(name, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if d := diff(got, want); d != "" {
				t.Errorf("tree%s", d)
			}
		})
	}
}

func TestParseTreeTOMLDates(t *testing.T) {
	got, err := parseTree("wrangler.toml", []byte("d = 2025-01-15\nt = 07:32:00\ndt = 2025-01-15T07:32:00\nz = 2025-01-15T07:32:00Z\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"d":  tomlDate("2025-01-15"),
		"t":  tomlDate("07:32:00"),
		"dt": tomlDate("2025-01-15T07:32:00"),
		"z":  tomlDate("2025-01-15T07:32:00Z"),
	}
	if d := diff(got, want); d != "" {
		t.Errorf("tree%s", d)
	}
}
