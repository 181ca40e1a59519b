// Command docfigures fills the figure markers of the repository's docs from
// the result files under bench/ (package benchdocs), or checks that they
// match.
//
//	go run ./test/benchdocs/docfigures          # regenerate (make docs-figures)
//	go run ./test/benchdocs/docfigures -check   # exit 1 when a doc is stale
//	go run ./test/benchdocs/docfigures -list    # every figure key on offer
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dwk/fleet/test/benchdocs"
)

func main() {
	check := flag.Bool("check", false, "report docs that differ from the result files and exit 1; write nothing")
	list := flag.Bool("list", false, "list every figure the result files offer, as SOURCE:KEY and its text")
	flag.Parse()
	root, err := benchdocs.Root(".")
	if err != nil {
		fail(err)
	}
	switch {
	case *list:
		keys, err := benchdocs.NewSources(filepath.Join(root, benchdocs.ResultsDir)).Keys()
		if err != nil {
			fail(err)
		}
		for _, k := range keys {
			fmt.Println(k)
		}
	case *check:
		probs, err := benchdocs.Check(root)
		if err != nil {
			fail(err)
		}
		for _, p := range probs {
			fmt.Fprintln(os.Stderr, p)
		}
		if len(probs) > 0 {
			fail(fmt.Errorf("%d problems: run 'make docs-figures' (after 'make bench' or 'make soak') and commit; put configuration values in code spans", len(probs)))
		}
	default:
		changed, err := benchdocs.Write(root)
		if err != nil {
			fail(err)
		}
		for _, c := range changed {
			fmt.Println("docfigures: updated", c)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "docfigures:", err)
	os.Exit(1)
}
