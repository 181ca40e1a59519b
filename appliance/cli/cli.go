// Package cli is the dwk command line. A custom build of dwk (the standard
// workers plus a user's own) is a main package that imports its workers and
// calls Main, the way custom Caddy builds call caddycmd.Main.
package cli

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Command is one dwk subcommand. Run gets the arguments after the command
// name and returns the process exit code.
type Command struct {
	Name  string
	Short string
	Run   func(args []string, stdout, stderr io.Writer) int
}

// commands are the built-in subcommands, plus any added with Register.
var commands = map[string]Command{}

// Register adds a subcommand. It panics on a duplicate name; call it from init.
func Register(c Command) {
	if _, dup := commands[c.Name]; dup {
		panic("cli: duplicate command " + c.Name)
	}
	commands[c.Name] = c
}

func init() {
	Register(Command{Name: "serve", Short: "run a replica (local mode with no --config)", Run: runServe})
	Register(Command{Name: "validate", Short: "check a dwk.json and list every problem", Run: runValidate})
	Register(Command{Name: "version", Short: "print the version", Run: runVersion})
}

// Main runs the command named by os.Args and exits with its code.
func Main() {
	os.Exit(Run(os.Args[1:], os.Stdout, os.Stderr))
}

// Run runs the command named by args[0].
func Run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "dwk: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	return c.Run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("dwk: a Workers-style application host.\n\nUsage: dwk <command> [flags]\n\nCommands:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %-10s %s\n", n, commands[n].Short)
	}
	b.WriteString("\nRun 'dwk <command> -h' for a command's flags.\n")
	io.WriteString(w, b.String())
}
