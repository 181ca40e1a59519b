package wrangler

import "testing"

// pairs flattens envVars to key, value, key, value... in order.
func pairs(e *envVars) []string {
	var out []string
	for _, k := range e.keys {
		out = append(out, k, e.vals[k])
	}
	return out
}

func TestParseDotenv(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"plain", "A=1\nB=two words\n", []string{"A", "1", "B", "two words"}},
		{"spaces around =", "A = 1  \n", []string{"A", "1"}},
		{"export prefix", "export TOKEN=abc\n", []string{"TOKEN", "abc"}},
		{"colon", "A: 1\n", []string{"A", "1"}},
		{"comments", "# a comment\nA=1 # why\n  # indented\n", []string{"A", "1"}},
		{"hash ends an unquoted value", "URL=http://x/#frag\n", []string{"URL", "http://x/"}},
		{"empty value", "A=\nB=2\n", []string{"A", "", "B", "2"}},
		{"single quotes are literal", `A='x\ny # z'`, []string{"A", `x\ny # z`}},
		{"double quotes expand \\n and \\r", `A="x\ny\rz"`, []string{"A", "x\ny\rz"}},
		{"double quotes keep other escapes", `A="say \"hi\"\t"`, []string{"A", `say \"hi\"\t`}},
		{"backticks", "A=`it's \"both\"`", []string{"A", `it's "both"`}},
		{"quoted value then comment", `A="a # b" # c`, []string{"A", "a # b"}},
		{"multi-line quoted", "KEY=\"-----BEGIN-----\nabc\n-----END-----\"\nNEXT=1\n", []string{"KEY", "-----BEGIN-----\nabc\n-----END-----", "NEXT", "1"}},
		{"CRLF", "A=1\r\nB=\"x\r\ny\"\r\n", []string{"A", "1", "B", "x\ny"}},
		{"later line wins, first place kept", "A=1\nB=2\nA=3\n", []string{"A", "3", "B", "2"}},
		{"non-assignments skipped", "just words\nA=1\n", []string{"A", "1"}},
		{"dots and dashes in keys", "A.B-C=1\n", []string{"A.B-C", "1"}},
		{"unclosed quote is a plain value", "A=\"open\nB=2\n", []string{"A", `"open`, "B", "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := diff(pairs(parseDotenv(tt.src)), tt.want); d != "" {
				t.Errorf("parse%s", d)
			}
		})
	}
}

func TestExpandDotenv(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		process map[string]string
		want    map[string]string
	}{
		{"earlier keys", "A=1\nB=$A-${A}\n", nil, map[string]string{"A": "1", "B": "1-1"}},
		{"later keys are not yet known", "B=$A\nA=1\n", nil, map[string]string{"A": "1", "B": ""}},
		{"unset is empty", "A=x${NOPE}y\n", nil, map[string]string{"A": "xy"}},
		{"defaults", "A=${X:-dflt}\nB=${X-other}\nE=\nC=${E:-empty}\n", nil, map[string]string{"A": "dflt", "B": "other", "E": "", "C": "empty"}},
		{"alternates", "S=1\nA=${S:+yes}\nB=${N:+yes}\n", nil, map[string]string{"S": "1", "A": "yes", "B": ""}},
		{"escaped dollar", `A=\$HOME and \${X}`, nil, map[string]string{"A": "$HOME and ${X}"}},
		{"single quotes do not stop expansion", "A=1\nB='$A'\n", nil, map[string]string{"A": "1", "B": "1"}},
		{"process environment resolves references", "B=${HOME}/x\n", map[string]string{"HOME": "/root"}, map[string]string{"HOME": "/root", "B": "/root/x"}},
		{"process environment wins over the file", "HOME=/file\n", map[string]string{"HOME": "/proc"}, map[string]string{"HOME": "/proc"}},
		{"self reference", "A=$A\n", nil, map[string]string{"A": ""}},
		{"self reference through the process", "P=$P:/x\n", map[string]string{"P": "/bin"}, map[string]string{"P": "/bin"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := expandDotenv(parseDotenv(tt.src), tt.process)
			if d := diff(got, tt.want); d != "" {
				t.Errorf("expanded%s", d)
			}
		})
	}
}
