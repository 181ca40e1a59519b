package journal

import (
	"encoding/binary"
	"strings"
)

// maxValue bounds one field's value: a datagram must fit the socket's
// buffer, and a longer value is cut.
const maxValue = 48 << 10

// fieldName turns an attribute key into a journal field name: upper case,
// any other character than A-Z, 0-9 and '_' made '_', no leading '_'
// (those names are the journal's own) or digit.
func fieldName(key string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(key) {
		if (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	n := strings.TrimLeft(b.String(), "_")
	if n == "" || (n[0] >= '0' && n[0] <= '9') {
		n = "F_" + n
	}
	return n
}

// appendField appends one field in the native protocol's encoding: NAME=value
// on a line, or, for a value with a newline, the name, a newline, the
// value's length as 64-bit little endian and the value.
func appendField(b []byte, name, value string) []byte {
	if len(value) > maxValue {
		value = value[:maxValue]
	}
	if !strings.Contains(value, "\n") {
		b = append(b, name...)
		b = append(b, '=')
		b = append(b, value...)
		return append(b, '\n')
	}
	b = append(b, name...)
	b = append(b, '\n')
	b = binary.LittleEndian.AppendUint64(b, uint64(len(value)))
	b = append(b, value...)
	return append(b, '\n')
}
