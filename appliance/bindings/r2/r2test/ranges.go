package r2test

import (
	"bytes"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

func (s *suite) testRanges(t *testing.T) {
	b, p := s.bucket(t)
	key := p + "k"
	body := readPattern(t, 7, 100)
	put(t, b, key, body, nil)
	tests := []struct {
		name string
		r    worker.R2Range
		// want is the returned part as an absolute Offset and Length.
		want worker.R2Range
	}{
		{"offset", worker.R2Range{Offset: 10}, worker.R2Range{Offset: 10, Length: 90}},
		{"offset and length", worker.R2Range{Offset: 10, Length: 5}, worker.R2Range{Offset: 10, Length: 5}},
		{"length only", worker.R2Range{Length: 7}, worker.R2Range{Offset: 0, Length: 7}},
		{"first byte", worker.R2Range{Length: 1}, worker.R2Range{Offset: 0, Length: 1}},
		{"last byte", worker.R2Range{Offset: 99}, worker.R2Range{Offset: 99, Length: 1}},
		{"length past the end", worker.R2Range{Offset: 95, Length: 50}, worker.R2Range{Offset: 95, Length: 5}},
		{"suffix", worker.R2Range{Suffix: 20}, worker.R2Range{Offset: 80, Length: 20}},
		{"suffix of one", worker.R2Range{Suffix: 1}, worker.R2Range{Offset: 99, Length: 1}},
		{"suffix longer than the body", worker.R2Range{Suffix: 500}, worker.R2Range{Offset: 0, Length: 100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.r
			o, got := get(t, b, key, &worker.R2GetOptions{Range: &r})
			want := body[tt.want.Offset : tt.want.Offset+tt.want.Length]
			if !bytes.Equal(got, want) {
				t.Errorf("body = %x, want %x", got, want)
			}
			if o.Range == nil || *o.Range != tt.want {
				t.Errorf("Range = %+v, want %+v", o.Range, tt.want)
			}
			if o.Size != int64(len(body)) {
				t.Errorf("Size = %d, want the whole object's %d", o.Size, len(body))
			}
			if o.ETag != md5Hex(body) {
				t.Errorf("ETag = %q, want the whole object's %q", o.ETag, md5Hex(body))
			}
		})
	}
	unsatisfiable := []struct {
		name string
		r    worker.R2Range
	}{
		{"offset at the end", worker.R2Range{Offset: 100}},
		{"offset past the end", worker.R2Range{Offset: 1000, Length: 10}},
	}
	for _, tt := range unsatisfiable {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.r
			o, err := b.Get(t.Context(), key, &worker.R2GetOptions{Range: &r})
			if err == nil && o.Body != nil {
				o.Body.Close()
			}
			wantErr(t, "Get", err, worker.ErrRangeNotSatisfiable)
		})
	}
}
