package htmlrewriter

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkScan is the Go side of scanning about 1 MiB for a[href]:
// tokenizing, tracking open elements, matching, in 16 KiB chunks.
func BenchmarkScan(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 1<<20; i++ {
		fmt.Fprintf(&sb, `<article id="post-%d"><h2><a href="/posts/%d">Post %d</a></h2><p class="e-content">Text &amp; <a href="https://example.com/%d" rel="nofollow">link</a>.</p>`+
			`<img src="/img/%d.jpg" alt=""><ul><li><a href="/tags/go">go</a><li>html</ul><script>x(a < b)</script></article>`+"\n", i, i, i, i, i)
	}
	page := []byte(sb.String())
	regs := []registration{{sel: mustSelector(b, "a[href]"), kinds: hasElement}}
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	defer ReportCPU(b, CPUTime())
	for range b.N {
		s := newScanner(compile(regs))
		starts := 0
		for rest := page; len(rest) > 0; {
			n := min(16384, len(rest))
			_, es, err := s.feed(rest[:n], false)
			if err != nil {
				b.Fatal(err)
			}
			for _, e := range es {
				if e.kind == entryStart {
					starts++
				}
			}
			rest = rest[n:]
		}
		if _, _, err := s.feed(nil, true); err != nil {
			b.Fatal(err)
		}
		if starts == 0 {
			b.Fatal("no links")
		}
	}
}
