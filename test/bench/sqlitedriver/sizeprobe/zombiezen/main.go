// Command zombiezen opens an in-memory database with zombiezen.com/go/sqlite
// and prints the SQLite version: the smallest program that links the driver.
package main

import (
	"fmt"
	"os"

	"zombiezen.com/go/sqlite"
)

func main() {
	c, err := sqlite.OpenConn(":memory:")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer c.Close()
	st := c.Prep("SELECT sqlite_version()")
	if _, err := st.Step(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("zombiezen", st.ColumnText(0))
	st.Reset()
}
