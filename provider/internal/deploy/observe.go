package deploy

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/dwk/fleet/appliance/config"
)

// Replica states as Observe reports them. Terraform wants StateRunning;
// any other state shows as a diff in `terraform plan`.
const (
	StateRunning     = "running"     // /readyz would say ready: the replica serves
	StateStarting    = "starting"    // running but not ready yet
	StateDraining    = "draining"    // running and draining
	StateStopped     = "stopped"     // installed, but the admin API does not answer
	StateMissing     = "missing"     // nothing installed in the install directory
	StateUnreachable = "unreachable" // the host itself could not be reached
)

// Observation is what Observe found on a host.
type Observation struct {
	// State is one of the State constants.
	State string
	// Version is the running replica's version ("" unless it answered).
	Version string
	// ConfigHash is the hash the running replica reports, or when it
	// differs (dwk.json was edited) or the replica is down, the hash of
	// dwk.json on disk; "" when there is neither.
	ConfigHash string
	// ArtifactID is the content id (sha256[:12]) of the binary `current`
	// points at, "" when there is none.
	ArtifactID string
	// File is dwk.json as the host holds it, nil when there is none or it
	// does not parse (or the host runs another Program).
	File *config.Config
	// Raw is the config file as the host holds it, nil when there is none.
	Raw []byte
	// Reported is the config hash the running replica reported, "" when
	// it did not answer.
	Reported string
	// Err explains StateUnreachable and StateStopped.
	Err error
}

// fileSeparator splits Observe's shell output from the config file's
// content.
const fileSeparator = "----- config -----"

// Observe inspects a host in one command and one admin API call (or, for
// a Program without Status, one readiness probe). An install directory
// that holds only kept data (Host.KeepData) is StateMissing.
func (d *Deployer) Observe(ctx context.Context, h *Host) Observation {
	test := fmt.Sprintf(`[ -e "$d/%s" ]`, markerFile)
	if h.KeepData {
		// A removal that kept the data left the marker with it.
		test += fmt.Sprintf(` && [ -L "$d/current" -o -e %s ]`, quote(h.config("")))
	}
	cmd := fmt.Sprintf(`d=%s
%s || { echo installed=no; exit 0; }
echo installed=yes
echo current=$(readlink "$d/current" 2>/dev/null)
echo %s
cat %s 2>/dev/null; true`, quote(h.InstallDir), test, fileSeparator, quote(h.config("")))
	out, err := h.Target.Run(ctx, cmd, nil)
	if err != nil {
		if IsCommandError(err) {
			return Observation{State: StateUnreachable, Err: fmt.Errorf("inspect %s: %w", h.InstallDir, err)}
		}
		return Observation{State: StateUnreachable, Err: err}
	}
	head, file, _ := strings.Cut(string(out), fileSeparator+"\n")
	var o Observation
	installed := false
	for _, line := range strings.Split(head, "\n") {
		k, v, _ := strings.Cut(line, "=")
		switch k {
		case "installed":
			installed = v == "yes"
		case "current":
			o.ArtifactID = strings.TrimPrefix(path.Base(v), "dwk-")
			if v == "" {
				o.ArtifactID = ""
			}
		}
	}
	if !installed {
		return Observation{State: StateMissing}
	}
	if strings.TrimSpace(file) != "" {
		o.Raw = []byte(file)
	}
	if !h.program().Status {
		if ok, answer := probe(ctx, httpClient(h), h); !ok {
			o.State, o.Err = StateStopped, fmt.Errorf("GET %s: %s", h.program().ReadyPath, answer)
		} else {
			o.State = StateRunning
		}
		return o
	}
	fileHash := ""
	if strings.TrimSpace(file) != "" {
		if c, err := config.Decode([]byte(file)); err == nil {
			fileHash, o.File = c.Hash(), c
		} else {
			fileHash = "invalid"
		}
	}
	if h.AdminToken == "" && o.File != nil && o.File.Admin.Token != nil {
		// The token is not kept outside the hosts: read it back.
		hc := *h
		hc.AdminToken = o.File.Admin.Token.Value
		h = &hc
	}
	r, err := d.Status(ctx, h)
	if err != nil {
		o.State, o.ConfigHash, o.Err = StateStopped, fileHash, err
		return o
	}
	o.Version, o.ConfigHash, o.Reported = r.Version, r.ConfigHash, r.ConfigHash
	if fileHash != "" && fileHash != r.ConfigHash {
		o.ConfigHash = fileHash
	}
	switch r.State {
	case "ready":
		o.State = StateRunning
	case "starting":
		o.State = StateStarting
	default:
		o.State = StateDraining
	}
	return o
}
