package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// group is a command made of subcommands, as wrangler's are ("dwk d1
// migrations apply"): its Run picks the subcommand named by its first
// argument.
type group struct {
	// name is the command line up to the subcommand ("d1 migrations").
	name string
	// about says what the group works on, for its usage.
	about string
	subs  []subcommand
}

// subcommand is one entry of a group: a leaf command or a nested group.
type subcommand struct {
	name, short string
	run         func(args []string, stdout, stderr io.Writer) int
}

// run dispatches args to the subcommand args[0] names.
func (g group) run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		w := stderr
		if len(args) > 0 {
			w = stdout
		}
		g.usage(w)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, s := range g.subs {
		if s.name == args[0] {
			return s.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "dwk %s: unknown command %q\n\n", g.name, args[0])
	g.usage(stderr)
	return 2
}

func (g group) usage(w io.Writer) {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: dwk %s <command> [flags]\n\n%s\n\nCommands:\n", g.name, g.about)
	for _, s := range g.subs {
		fmt.Fprintf(&b, "  %-12s %s\n", s.name, s.short)
	}
	fmt.Fprintf(&b, "\nRun 'dwk %s <command> -h' for a command's arguments and flags.\n", g.name)
	io.WriteString(w, b.String())
}

// newFlagSet returns the flag set of the command `dwk name`, whose usage
// line is usage and whose description is about.
func newFlagSet(name, usage, about string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: dwk %s %s\n\n%s\n\nFlags:\n", name, usage, about)
		fs.PrintDefaults()
	}
	return fs
}

// parseArgs parses args with flags before, between and after the
// positional arguments, as wrangler takes them ("kv key put KEY VALUE
// --binding NOTES"); after "--" every argument is positional. It returns
// the positional arguments, or the exit code when parsing stopped: 0 for
// -h, 2 for a mistake (reported on the flag set's output), including a
// count of positional arguments outside [min, max].
func parseArgs(fs *flag.FlagSet, args []string, min, max int) ([]string, int) {
	var pos []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, 0
			}
			return nil, 2
		}
		left := fs.Args()
		consumed := len(rest) - len(left)
		if consumed > 0 && rest[consumed-1] == "--" {
			pos = append(pos, left...)
			break
		}
		if len(left) == 0 {
			break
		}
		pos = append(pos, left[0])
		rest = left[1:]
	}
	if len(pos) < min || len(pos) > max {
		want := fmt.Sprintf("%d", min)
		if max > min {
			want = fmt.Sprintf("%d to %d", min, max)
		}
		fmt.Fprintf(fs.Output(), "dwk %s: takes %s arguments, got %d: %q\n", fs.Name(), want, len(pos), pos)
		fs.Usage()
		return nil, 2
	}
	return pos, -1
}
