// Command baseline is the size-probe reference: database/sql linked, no
// SQLite driver. The size of each other probe minus this one is the cost of
// its driver.
package main

import (
	"database/sql"
	"fmt"
)

func main() {
	fmt.Println(sql.Drivers())
}
