package jsprojects

import (
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/fleettest"
)

// TestFleet runs every project at once on one central fleet of two
// replicas, each project on its own route, and runs each project's test
// through both front doors.
func TestFleet(t *testing.T) {
	var workers []config.Worker
	seen := map[string]bool{}
	for _, p := range projects {
		for _, name := range append([]string{p.name}, p.with...) {
			if !seen[name] {
				seen[name] = true
				workers = append(workers, config.Worker{Project: projectDir(t, name), Routes: []string{"/" + name + "/"}})
			}
		}
	}
	f := fleettest.New(t, fleettest.Options{Replicas: 2, Edit: func(i int, c *config.Config) { c.Workers = workers }})
	f.Provision()
	env := []string{"DWK_FLEET_SECRET=" + f.Secret, "DWK_S3_SECRET=" + f.S3.SecretKey, "DWK_ADMIN_TOKEN=" + fleettest.AdminToken}
	for _, p := range projects {
		for _, db := range p.migrate {
			runDwk(t, env, "d1", "migrations", "apply", db, "--config", f.Replicas[0].Config, "--worker", p.name)
		}
	}
	for _, r := range f.Replicas {
		r.Start()
	}
	s := &site{fleet: true, logs: func() string {
		var b strings.Builder
		for _, r := range f.Replicas {
			b.WriteString(r.Proc.Output())
		}
		return b.String()
	}}
	for _, r := range f.Replicas {
		s.doors = append(s.doors, r.Public)
	}
	t.Run("projects", func(t *testing.T) {
		for _, p := range projects {
			t.Run(p.name, func(t *testing.T) {
				t.Parallel()
				p.test(t, s)
			})
		}
	})
}
