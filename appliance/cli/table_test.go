package cli

import (
	"bytes"
	"flag"
	"io"
	"reflect"
	"testing"
)

func TestWriteTable(t *testing.T) {
	var b bytes.Buffer
	writeTable(&b, []string{"name", "status"}, [][]string{{"0001_init.sql", "✅"}, {"0002_tags.sql", ""}})
	want := "" +
		"┌───────────────┬────────┐\n" +
		"│ name          │ status │\n" +
		"├───────────────┼────────┤\n" +
		"│ 0001_init.sql │ ✅     │\n" +
		"│ 0002_tags.sql │        │\n" +
		"└───────────────┴────────┘\n"
	if got := b.String(); got != want {
		t.Errorf("writeTable =\n%s\nwant\n%s", got, want)
	}
}

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args     []string
		min, max int
		pos      []string
		binding  string
		local    bool
		code     int
	}{
		{[]string{"k", "v", "--binding", "NOTES", "--local"}, 1, 2, []string{"k", "v"}, "NOTES", true, -1},
		{[]string{"--binding=NOTES", "k"}, 1, 2, []string{"k"}, "NOTES", false, -1},
		{[]string{"k", "--local", "--", "-v", "--binding"}, 1, 3, []string{"k", "-v", "--binding"}, "", true, -1},
		{[]string{"a", "b", "c"}, 1, 2, nil, "", false, 2},
		{[]string{}, 1, 2, nil, "", false, 2},
		{[]string{"-h"}, 1, 2, nil, "", false, 0},
		{[]string{"k", "--nope"}, 1, 2, nil, "", false, 2},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("kv key put", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		binding := fs.String("binding", "", "")
		local := fs.Bool("local", false, "")
		pos, code := parseArgs(fs, tt.args, tt.min, tt.max)
		if code != tt.code {
			t.Errorf("parseArgs(%q) code = %d, want %d", tt.args, code, tt.code)
			continue
		}
		if code != -1 {
			continue
		}
		if !reflect.DeepEqual(pos, tt.pos) || *binding != tt.binding || *local != tt.local {
			t.Errorf("parseArgs(%q) = %q, --binding %q, --local %t; want %q, %q, %t", tt.args, pos, *binding, *local, tt.pos, tt.binding, tt.local)
		}
	}
}
