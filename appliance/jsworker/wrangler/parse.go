package wrangler

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"time"

	"github.com/BurntSushi/toml"
)

// tomlDate is a TOML date or time value kept as its text: wrangler has no
// key that takes one, so every place it appears is a type error that
// should show what was written.
type tomlDate string

// parseTree reads the three formats into one tree of map[string]any,
// []any, string, float64 (numbers are JavaScript numbers, as in
// wrangler), bool, nil (JSON null) and tomlDate. The format follows the
// file's extension, as wrangler's does.
func parseTree(name string, src []byte) (map[string]any, error) {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	switch filepath.Ext(name) {
	case ".toml":
		return parseTOML(src)
	case ".json", ".jsonc":
		return parseJSONC(src)
	}
	return nil, fmt.Errorf("cannot tell the format of %q: name it wrangler.toml, wrangler.json or wrangler.jsonc", filepath.Base(name))
}

func parseTOML(src []byte) (map[string]any, error) {
	var raw map[string]any
	if _, err := toml.Decode(string(src), &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("line %d: %s", pe.Position.Line, pe.Message)
		}
		return nil, err
	}
	tree, _ := normalize(raw).(map[string]any)
	return tree, nil
}

func parseJSONC(src []byte) (map[string]any, error) {
	plain, err := stripJSONC(src)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(plain))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, jsonError(plain, dec, err)
	}
	end := int(dec.InputOffset())
	if _, err := dec.Token(); err != io.EOF {
		for end < len(plain) && isJSONSpace(plain[end]) {
			end++
		}
		line, col := lineCol(plain, end)
		return nil, fmt.Errorf("line %d, column %d: unexpected text after the closing }", line, col)
	}
	tree, ok := normalize(raw).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the file must hold one JSON object, got %s", typeName(normalize(raw)))
	}
	return tree, nil
}

func jsonError(src []byte, dec *json.Decoder, err error) error {
	offset := int(dec.InputOffset())
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset > 0 {
		offset = int(se.Offset) - 1 // Offset counts the offending byte
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		offset = len(src)
		err = errors.New("unexpected end of file")
	}
	line, col := lineCol(src, offset)
	return fmt.Errorf("line %d, column %d: %v", line, col, err)
}

// normalize converts what the decoders produce into the tree's types.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = normalize(e)
		}
		return m
	case []map[string]any:
		a := make([]any, len(v))
		for i, e := range v {
			a[i] = normalize(e)
		}
		return a
	case []any:
		a := make([]any, len(v))
		for i, e := range v {
			a[i] = normalize(e)
		}
		return a
	case json.Number:
		// Out of range becomes ±Inf, as JSON.parse makes it.
		f, _ := strconv.ParseFloat(string(v), 64)
		return f
	case int64:
		return float64(v)
	case time.Time:
		return tomlDate(dateText(v))
	}
	return v
}

// dateText writes a TOML date or time back the way it is usually written.
func dateText(t time.Time) string {
	// The decoder marks local dates and times by these zone names.
	switch t.Location().String() {
	case "date-local":
		return t.Format("2006-01-02")
	case "time-local":
		return t.Format("15:04:05.999999999")
	case "datetime-local":
		return t.Format("2006-01-02T15:04:05.999999999")
	}
	return t.Format(time.RFC3339Nano)
}

// typeName names a tree value's type the way messages say it.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case tomlDate:
		return "a TOML date"
	}
	return fmt.Sprintf("%T", v)
}
