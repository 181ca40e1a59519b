package deploy

import "strings"

// Program is what a host runs: which dwk command, from which config file
// in the install directory, how the binary checks that file before it is
// activated, and where readiness shows. Everything else — staging,
// activation, the service managers, rollouts, removal — is the same for
// every program.
type Program struct {
	// Kind names what runs in messages and the systemd unit's
	// description, e.g. "replica".
	Kind string
	// ConfigFile is the config's name in the install directory; the staged
	// one is ConfigFile+".new", the previous one ConfigFile+".prev".
	ConfigFile string
	// Command is the dwk subcommand and flags that run the program; the
	// config file's path follows them.
	Command []string
	// Check is the dwk subcommand and flags that check a config file
	// without running it; the file's path follows them. It exits non-zero
	// naming what is wrong.
	Check []string
	// ReadyPath is the path, on Host.AdminAddr, that answers 200 once the
	// program serves.
	ReadyPath string
	// Status says Host.AdminAddr answers GET /admin/status with a Report
	// (a replica does; a program without it is running when ReadyPath
	// answers 200).
	Status bool
	// Doc is the documentation URL the systemd unit names.
	Doc string
	// NoFile is the systemd unit's LimitNOFILE. Default: 65536.
	NoFile int
}

// noFile is p's LimitNOFILE.
func (p *Program) noFile() int {
	if p.NoFile > 0 {
		return p.NoFile
	}
	return 65536
}

// Replica is a dwk replica: `dwk serve --config dwk.json`.
var Replica = &Program{
	Kind:       "replica",
	ConfigFile: "dwk.json",
	Command:    []string{"serve", "--config"},
	Check:      []string{"validate"},
	ReadyPath:  "/readyz",
	Status:     true,
	Doc:        "https://registry.terraform.io/providers/dwk/dwk/latest/docs/resources/fleet",
	// A proxied WebSocket holds two descriptors.
	NoFile: 1 << 20,
}

// LibSQLServer is the bundled libSQL server: `dwk libsql --config
// libsql.json`, whose file holds its flags by name. It is ready when its
// user API answers GET /health.
var LibSQLServer = &Program{
	Kind:       "libSQL server",
	ConfigFile: "libsql.json",
	Command:    []string{"libsql", "--config"},
	Check:      []string{"libsql", "--check", "--config"},
	ReadyPath:  "/health",
	Doc:        "https://registry.terraform.io/providers/dwk/dwk/latest/docs/resources/libsql_server",
}

// program is h's Program; a Host without one runs a replica.
func (h *Host) program() *Program {
	if h.Program == nil {
		return Replica
	}
	return h.Program
}

// config is the path of h's active config file, with suffix appended to
// its name (".new", ".prev" or "").
func (h *Host) config(suffix string) string { return h.path(h.program().ConfigFile + suffix) }

// commandLine is the program's dwk arguments for the config at cfg, each
// quoted for sh.
func commandLine(words []string, cfg string) string {
	q := make([]string, 0, len(words)+1)
	for _, w := range words {
		q = append(q, quote(w))
	}
	return strings.Join(append(q, quote(cfg)), " ")
}
