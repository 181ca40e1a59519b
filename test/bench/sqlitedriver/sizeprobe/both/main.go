// Command both links modernc.org/sqlite's database/sql driver and
// zombiezen.com/go/sqlite, as dwk does (appliance/process/sqlitedb and d1local): its
// size minus the modernc probe's is what zombiezen adds to such a binary.
package main

import (
	"database/sql"
	"fmt"
	"os"

	_ "modernc.org/sqlite"
	"zombiezen.com/go/sqlite"
)

func main() {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer db.Close()
	var v string
	if err := db.QueryRow("SELECT sqlite_version()").Scan(&v); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	c, err := sqlite.OpenConn(":memory:")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer c.Close()
	fmt.Println("both", v)
}
