package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/dwk/fleet/appliance/fleet/internaltls"
)

func init() {
	Register(Command{Name: "certs", Short: "make a fleet CA and issue member certificates for listen.internal_tls", Run: runCerts})
}

// runCerts writes <dir>/ca.pem and ca-key.pem (kept if present) and, for
// each --member, <member>.pem and <member>-key.pem issued by that CA.
func runCerts(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("certs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fleet := fs.String("fleet", "", "fleet name (fleet.name in dwk.json); required")
	dir := fs.String("dir", ".", "directory of ca.pem, ca-key.pem and the member files")
	validity := fs.Duration("validity", internaltls.DefaultValidity, "how long new certificates are valid")
	var members, hosts []string
	fs.Func("member", "member id (fleet.member) to issue a certificate for (repeatable)", func(s string) error {
		members = append(members, s)
		return nil
	})
	fs.Func("host", "DNS name or IP address added to every member certificate, for tools that check host names (repeatable)", func(s string) error {
		hosts = append(hosts, s)
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *fleet == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "dwk certs: give --fleet NAME (and --member ID for each replica); no other arguments")
		return 2
	}
	if err := certs(*dir, *fleet, members, hosts, *validity, stdout); err != nil {
		fmt.Fprintln(stderr, "dwk certs:", err)
		return 1
	}
	return 0
}

func certs(dir, fleet string, members, hosts []string, d time.Duration, stdout io.Writer) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	caFile, caKeyFile := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "ca-key.pem")
	var ca internaltls.PEM
	c, err1 := os.ReadFile(caFile)
	k, err2 := os.ReadFile(caKeyFile)
	switch {
	case err1 == nil && err2 == nil:
		ca = internaltls.PEM{Cert: c, Key: k}
		fmt.Fprintf(stdout, "using the CA in %s\n", caFile)
	case errors.Is(err1, fs.ErrNotExist) && errors.Is(err2, fs.ErrNotExist):
		var err error
		if ca, err = internaltls.NewCA(fleet, d); err != nil {
			return err
		}
		if err := writeFiles(caFile, ca.Cert, caKeyFile, ca.Key); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s and %s (keep the key offline; replicas need only ca.pem)\n", caFile, caKeyFile)
	default:
		return fmt.Errorf("need both %s and %s, or neither: %w", caFile, caKeyFile, errors.Join(err1, err2))
	}
	for _, m := range members {
		p, err := internaltls.IssueMember(ca, fleet, m, hosts, d)
		if err != nil {
			return fmt.Errorf("member %q: %w", m, err)
		}
		base := filepath.Join(dir, url.PathEscape(m))
		if err := writeFiles(base+".pem", p.Cert, base+"-key.pem", p.Key); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s.pem and %s-key.pem for member %q\n", base, base, m)
	}
	return nil
}

// writeFiles writes a certificate (0644) and its key (0600) so that
// neither is left half-written: each goes to a temporary file renamed in
// place.
func writeFiles(cert string, certPEM []byte, key string, keyPEM []byte) error {
	for _, f := range []struct {
		name string
		b    []byte
		mode os.FileMode
	}{{key, keyPEM, 0o600}, {cert, certPEM, 0o644}} {
		tmp := f.name + ".tmp"
		if err := os.WriteFile(tmp, f.b, f.mode); err != nil {
			return err
		}
		if err := os.Rename(tmp, f.name); err != nil {
			return err
		}
	}
	return nil
}
