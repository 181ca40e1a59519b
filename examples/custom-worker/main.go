// Command dwk-hello is dwk with one more worker: the standard binary (its
// commands and the reference workers) plus package hello. This is the
// whole of a custom build, the way a Caddy build adds modules: import the
// packages whose init functions register workers, then run the CLI.
package main

import (
	"github.com/dwk/fleet/appliance/cli"
	_ "github.com/dwk/fleet/appliance/refworkers" // counter and chat, optional

	_ "example.com/hello-dwk/hello" // registers the hello worker and the Guestbook object
)

func main() { cli.Main() }
