package hrana

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCondEval(t *testing.T) {
	// Step 0 succeeded, step 1 failed, step 2 was skipped.
	outcomes := []Outcome{Succeeded, Failed, Skipped}
	tests := []struct {
		name       string
		cond       *BatchCond
		autocommit bool
		want       bool
	}{
		{"ok on success", CondOK(0), true, true},
		{"ok on failure", CondOK(1), true, false},
		{"ok on skipped", CondOK(2), true, false},
		{"error on failure", CondError(1), true, true},
		{"error on success", CondError(0), true, false},
		{"error on skipped", CondError(2), true, false},
		{"not", CondNot(CondOK(1)), true, true},
		{"and true", CondAnd(*CondOK(0), *CondError(1)), true, true},
		{"and false", CondAnd(*CondOK(0), *CondOK(1)), true, false},
		{"and empty", CondAnd(), true, true},
		{"or true", CondOr(*CondOK(1), *CondOK(0)), true, true},
		{"or false", CondOr(*CondOK(1), *CondOK(2)), true, false},
		{"or empty", CondOr(), true, false},
		{"is_autocommit", CondIsAutocommit(), true, true},
		{"is_autocommit in txn", CondIsAutocommit(), false, false},
		{"nested", CondNot(CondAnd(*CondIsAutocommit(), *CondNot(CondError(1)))), true, true},
		{"step beyond outcomes", CondOK(9), true, false},
	}
	for _, tt := range tests {
		if got := tt.cond.Eval(outcomes, tt.autocommit); got != tt.want {
			t.Errorf("%s: Eval = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestCondValidate(t *testing.T) {
	tests := []struct {
		json    string
		step    int
		version Version
		err     string
	}{
		{`{"type":"ok","step":0}`, 1, V2, ""},
		{`{"type":"ok","step":1}`, 1, V2, "Invalid reference to step"},
		{`{"type":"error"}`, 1, V2, "needs a \"step\""},
		{`{"type":"not"}`, 1, V2, "needs a \"cond\""},
		{`{"type":"and","conds":[{"type":"ok","step":0},{"type":"or","conds":[{"type":"ok","step":3}]}]}`, 2, V2, "Invalid reference"},
		{`{"type":"is_autocommit"}`, 0, V2, "version hrana3"},
		{`{"type":"is_autocommit"}`, 0, V3, ""},
		{`{"type":"xor"}`, 0, V3, "not recognized"},
	}
	for _, tt := range tests {
		var c BatchCond
		if err := json.Unmarshal([]byte(tt.json), &c); err != nil {
			t.Fatal(err)
		}
		err := c.Validate(tt.step, tt.version)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: unexpected %v", tt.json, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: err %v, want %q", tt.json, err, tt.err)
		case err != nil:
			if _, ok := err.(*ProtocolError); !ok {
				t.Errorf("%s: %T is not a *ProtocolError", tt.json, err)
			}
		}
	}
}
