// Command dwk is the dwk appliance: the application server with the
// reference workers built in, the bundled libSQL server, and the operator
// commands. Run `dwk help` for the list.
package main

import (
	"github.com/dwk/fleet/appliance/cli"
	_ "github.com/dwk/fleet/appliance/refworkers" // counter and chat
)

func main() { cli.Main() }
