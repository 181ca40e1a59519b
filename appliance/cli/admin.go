package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dwk/fleet/appliance/fleet/internaltls"
	"github.com/dwk/fleet/appliance/server"
	"github.com/dwk/fleet/appliance/server/adminclient"
)

func init() {
	Register(Command{Name: "drain", Short: "drain a replica through its admin API and wait for it to exit", Run: runDrain})
	Register(Command{Name: "status", Short: "show replicas: member, state, version", Run: runStatus})
}

// adminFlags are the flags every admin-API command takes.
type adminFlags struct {
	urls   []string
	token  string
	caFile string
	client *http.Client
}

func (a *adminFlags) register(fs *flag.FlagSet) {
	fs.Func("admin", "admin API URL of a replica, e.g. http://127.0.0.1:8789 (repeatable)", func(s string) error {
		a.urls = append(a.urls, strings.TrimRight(s, "/"))
		return nil
	})
	fs.StringVar(&a.token, "token", os.Getenv("DWK_ADMIN_TOKEN"), "admin token (default $DWK_ADMIN_TOKEN)")
	fs.StringVar(&a.caFile, "ca-file", os.Getenv("DWK_CA_FILE"), "fleet CA (listen.internal_tls.ca_file) that https:// admin URLs are checked against (default $DWK_CA_FILE)")
}

// httpClient trusts the fleet CA when one is given: the admin API of a
// replica not on loopback speaks TLS with its member certificate.
func (a *adminFlags) httpClient() (*http.Client, error) {
	if a.client != nil {
		return a.client, nil
	}
	a.client = &http.Client{Timeout: 30 * time.Second}
	if a.caFile != "" {
		c, err := internaltls.AdminClientConfig(a.caFile, "")
		if err != nil {
			return nil, err
		}
		a.client.Transport = &http.Transport{TLSClientConfig: c}
	}
	return a.client, nil
}

func (a *adminFlags) call(ctx context.Context, method, base, path string, out any) error {
	c, err := a.httpClient()
	if err != nil {
		return err
	}
	return adminclient.Client{Token: a.token, HTTP: c}.Call(ctx, method, base, path, out)
}

func runDrain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("drain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var a adminFlags
	a.register(fs)
	wait := fs.Duration("wait", 2*time.Minute, "how long to wait for the replica to exit (0: don't wait)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if len(a.urls) != 1 {
		fmt.Fprintln(stderr, "dwk drain: give exactly one --admin URL")
		return 2
	}
	base := a.urls[0]
	ctx := context.Background()
	if err := a.call(ctx, http.MethodPost, base, "/admin/drain", nil); err != nil {
		fmt.Fprintln(stderr, "dwk drain:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: draining\n", base)
	if *wait == 0 {
		return 0
	}
	deadline := time.Now().Add(*wait)
	for time.Now().Before(deadline) {
		resp, err := http.Get(base + "/livez")
		if err != nil {
			fmt.Fprintf(stdout, "%s: exited\n", base)
			return 0
		}
		resp.Body.Close()
		time.Sleep(200 * time.Millisecond)
	}
	fmt.Fprintf(stderr, "dwk drain: %s still running after %v\n", base, *wait)
	return 1
}

func runStatus(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var a adminFlags
	a.register(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if len(a.urls) == 0 {
		fmt.Fprintln(stderr, "dwk status: give at least one --admin URL")
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var reports []server.StatusReport
	var errs []error
	for _, u := range a.urls {
		var r server.StatusReport
		if err := a.call(ctx, http.MethodGet, u, "/admin/status", &r); err != nil {
			errs = append(errs, err)
			continue
		}
		reports = append(reports, r)
	}
	if *asJSON {
		json.NewEncoder(stdout).Encode(reports)
	} else {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "MEMBER\tSTATE\tVERSION\tMODE\tFLEET\tPUBLIC\tSTARTED")
		for _, r := range reports {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Member, r.State, r.Version, r.Mode, r.Fleet, r.Public, r.Started.Format(time.RFC3339))
		}
		tw.Flush()
	}
	if err := errors.Join(errs...); err != nil {
		fmt.Fprintln(stderr, "dwk status:", err)
		return 1
	}
	return 0
}
