package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"
)

// Load reads and strictly decodes the file at path. It does not validate.
func Load(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	c, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return c, nil
}

// Decode strictly decodes dwk.json. Unknown fields are reported all at once,
// each with its JSON path, as Problems.
func Decode(b []byte) (*Config, error) {
	var raw any
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, syntaxProblem(b, err)
	}
	var ps Problems
	unknownFields("", raw, reflect.TypeFor[Config](), &ps)
	if len(ps) > 0 {
		return nil, ps
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	var c Config
	if err := d.Decode(&c); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, Problems{{Path: te.Field, Message: fmt.Sprintf("must be %s, not JSON %s", te.Type, te.Value)}}
		}
		return nil, Problems{{Path: "", Message: err.Error()}}
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, Problems{{Message: "unexpected data after the top-level object"}}
	}
	return &c, nil
}

// Encode renders c as indented JSON, the form the provider writes.
func Encode(c *Config) ([]byte, error) {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode config: %w", err)
	}
	return append(b, '\n'), nil
}

func syntaxProblem(b []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1 + bytes.Count(b[:min(int(se.Offset), len(b))], []byte("\n"))
		return Problems{{Message: fmt.Sprintf("invalid JSON at line %d: %v", line, se)}}
	}
	return Problems{{Message: "invalid JSON: " + err.Error()}}
}

// unknownFields walks the decoded JSON beside the Go type and records every
// object key no struct field claims.
func unknownFields(path string, v any, t reflect.Type, ps *Problems) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch val := v.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Struct:
			if t == reflect.TypeFor[Secret]() {
				for k := range val {
					if k != "env" && k != "file" {
						ps.add(join(path, k), `unknown field: a secret object has only "env" or "file"`)
					}
				}
				return
			}
			fields := jsonFields(t)
			for _, k := range sortedKeys(val) {
				ft, ok := fields[k]
				if !ok {
					ps.add(join(path, k), "unknown field%s", suggest(k, fields))
					continue
				}
				unknownFields(join(path, k), val[k], ft, ps)
			}
		case reflect.Map:
			for _, k := range sortedKeys(val) {
				unknownFields(join(path, k), val[k], t.Elem(), ps)
			}
		}
	case []any:
		if t.Kind() == reflect.Slice {
			for i, e := range val {
				unknownFields(fmt.Sprintf("%s[%d]", path, i), e, t.Elem(), ps)
			}
		}
	}
}

func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

func suggest(k string, fields map[string]reflect.Type) string {
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if editDistance(strings.ToLower(k), n) <= 2 {
			return fmt.Sprintf(" (did you mean %q?)", n)
		}
	}
	return " (known: " + strings.Join(names, ", ") + ")"
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func sortStrings(s []string) { sort.Strings(s) }
