package provider

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/appliance/jsworker/artifact"
	"github.com/dwk/fleet/appliance/jsworker/project"
	"github.com/dwk/fleet/provider/internal/deploy"
)

// buildProject builds the project at p (a wrangler file, its directory, or
// an artifact) for the wrangler environment env. It builds every time it
// is asked: a build is reproducible, and the plan and the apply must see
// the project as it is.
func buildProject(ctx context.Context, p, env string) (*deploy.Project, error) {
	file, err := project.Resolve("", p)
	if err != nil {
		return nil, err
	}
	if project.IsArtifact(file) {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		a, err := artifact.Read(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		w := a.Wrangler()
		if env != "" && env != w.Env {
			return nil, fmt.Errorf("%s was bundled for the environment %q, not %q: bundle it again with dwk bundle --env %s, or leave env out", file, w.Env, env, env)
		}
		return &deploy.Project{Name: w.Name, Hash: a.Hash(), Data: data}, nil
	}
	var out, log bytes.Buffer
	pr, hash, err := project.WriteArtifact(ctx, file, project.Options{Env: env, BuildLog: &log}, &out)
	if err != nil {
		if l := strings.TrimSpace(log.String()); l != "" {
			return nil, fmt.Errorf("%w\nbuild output:\n%s", err, l)
		}
		return nil, err
	}
	return &deploy.Project{Name: pr.Wrangler.Name, Hash: hash, Data: out.Bytes()}, nil
}

// planProjects builds the Workers projects m's workers name and sets each
// one's project_hash (and name, unless configured) in m. With check (at
// apply), a project whose hash is not the planned one is an error: it
// changed since the plan. It returns the artifacts, one per project; ok is
// false while a project's path or env is unknown.
func planProjects(ctx context.Context, m *fleetModel, check bool) (built []deploy.Project, ok bool, diags diag.Diagnostics) {
	if m.Workers.IsNull() {
		return nil, true, nil
	}
	if m.Workers.IsUnknown() {
		return nil, false, nil
	}
	var ws []workerModel
	if d := m.Workers.ElementsAs(ctx, &ws, false); d.HasError() {
		return nil, false, nil // unknown parts: resolve says so
	}
	seen := map[string]bool{}
	for i := range ws {
		w := &ws[i]
		at := path.Root("workers").AtListIndex(i)
		if w.Project.IsUnknown() || w.Env.IsUnknown() {
			return nil, false, diags
		}
		if w.Project.IsNull() {
			if w.Name.IsNull() || w.Name.ValueString() == "" {
				diags.AddAttributeError(at, "Worker without a name", "A worker needs name (a Go worker built into the binary) or project (a Workers project).")
			}
			if !w.Env.IsNull() {
				diags.AddAttributeError(at.AtName("env"), "env without a project", "env picks an environment of a project's wrangler file; set project too.")
			}
			w.ProjectHash = types.StringNull()
			continue
		}
		b, err := buildProject(ctx, w.Project.ValueString(), w.Env.ValueString())
		if err != nil {
			diags.AddAttributeError(at.AtName("project"), "Cannot build the Workers project", err.Error())
			continue
		}
		if check && !w.ProjectHash.IsUnknown() && w.ProjectHash.ValueString() != b.Hash {
			diags.AddAttributeError(at.AtName("project"), "The Workers project changed since the plan",
				fmt.Sprintf("%s builds to %s now, but the plan was made for %s; nothing was deployed. Run terraform apply again to plan the change.",
					w.Project.ValueString(), b.Hash, w.ProjectHash.ValueString()))
			continue
		}
		w.ProjectHash = types.StringValue(b.Hash)
		if w.Name.IsNull() || w.Name.IsUnknown() {
			w.Name = types.StringValue(b.Name)
		}
		if !seen[b.Hash] {
			seen[b.Hash] = true
			built = append(built, *b)
		}
	}
	if diags.HasError() {
		return nil, false, diags
	}
	l, d := types.ListValueFrom(ctx, m.Workers.ElementType(ctx), ws)
	diags.Append(d...)
	m.Workers = l
	return built, true, diags
}
