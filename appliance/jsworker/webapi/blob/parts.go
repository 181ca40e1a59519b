package blob

import "strings"

// joinParts concatenates a Blob's parts into new memory; with native,
// line breaks in string parts become "\n" (the File API's native line
// endings on this platform).
func joinParts(parts [][]byte, strs []bool, native bool) []byte {
	total := 0
	for _, p := range parts {
		total += len(p)
	}
	out := make([]byte, 0, total)
	for i, p := range parts {
		if native && strs[i] {
			out = append(out, nativeEndings(string(p))...)
			continue
		}
		out = append(out, p...)
	}
	return out
}

// nativeEndings turns CRLF and CR into LF.
func nativeEndings(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}
