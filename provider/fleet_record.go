package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/dwk/fleet/appliance/central"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// A central-mode dwk_fleet keeps a record of itself in its coordination
// database: its state (which holds no secret) and the config hash salt
// from its private state. `terraform import dwk_fleet.x NAME` reads it
// back, so a lost state adopts the running fleet with a plan that shows
// no changes. Local-mode fleets have no shared store to keep it in.

// recordKey is the coordination key of the record.
func recordKey() tuple.Key { return tuple.Key{"terraform", "dwk_fleet"} }

// recordVersion is the record format; a reader refuses newer ones.
const recordVersion = 1

// fleetRecord is the record: each top-level attribute of the state as
// msgpack (so an attribute added in a later version reads as null), and
// the salt.
type fleetRecord struct {
	Version    int               `json:"version"`
	Salt       string            `json:"salt"`
	Written    time.Time         `json:"written"`
	Attributes map[string][]byte `json:"attributes"`
}

// recordTimeout bounds reading or writing the record.
const recordTimeout = 30 * time.Second

// recordConn is the libSQL connection the record is kept through: the
// provider's when it names a server (how Terraform reaches it), else the
// fleet's own.
func (r *fleetResource) recordConn(spec *fleetSpec) libsqlConn {
	var lc libsqlConn
	if r.data != nil {
		lc = r.data.libsql
	}
	if lc.URL == "" && spec != nil && spec.LibSQL != nil {
		lc = libsqlConn{URL: spec.LibSQL.URL, CAFile: spec.LibSQLCAFile}
		if spec.LibSQL.AuthToken != nil {
			lc.AuthToken = spec.LibSQL.AuthToken.Value
		}
	}
	return lc
}

// openCoord opens fleet's coordination store through lc; close releases it.
func openCoord(ctx context.Context, fleet string, lc libsqlConn) (st *coord.Store, closeFn func(), err error) {
	if lc.URL == "" {
		return nil, nil, fmt.Errorf("no libSQL URL: set libsql.url on the provider, or %s", EnvLibSQLURL)
	}
	clients, err := central.Dial(ctx, storesConfig(fleet, "", lc, s3Conn{}), central.Options{})
	if err != nil {
		return nil, nil, err
	}
	st, err = coord.Open(ctx, clients.Coord, coord.Options{SweepInterval: -1})
	if err != nil {
		clients.Close()
		return nil, nil, fmt.Errorf("open the coordination database %s at %s: %w", clients.Coord.Namespace(), lc.URL, err)
	}
	return st, func() {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		st.Close(cctx)
		clients.Close()
	}, nil
}

// writeRecord stores state and the salt as the record of a central-mode
// fleet. A failure is a warning: the fleet is deployed, only a later
// import by name would miss it.
func (r *fleetResource) writeRecord(ctx context.Context, spec *fleetSpec, state tfsdk.State, diags *diag.Diagnostics) {
	if spec.Mode != "central" {
		return
	}
	warn := func(err error) {
		diags.AddWarning("dwk_fleet: the fleet's record was not written",
			fmt.Sprintf("%v. The fleet is deployed; only `terraform import` of it by name needs the record, and the next apply writes it again.", err))
	}
	rec, err := encodeRecord(state, spec.Salt)
	if err != nil {
		warn(err)
		return
	}
	b, err := json.Marshal(rec)
	if err != nil {
		warn(err)
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	st, closeFn, err := openCoord(ctx, spec.Name, r.recordConn(spec))
	if err != nil {
		warn(err)
		return
	}
	defer closeFn()
	if _, err := st.Atomic().Set(recordKey(), b, 0).Commit(ctx); err != nil {
		warn(err)
	}
}

// deleteRecord removes the record once the fleet is destroyed, so that an
// import does not adopt a fleet that is gone. A missing coordination
// database is fine; other failures are warnings.
func (r *fleetResource) deleteRecord(ctx context.Context, spec *fleetSpec, diags *diag.Diagnostics) {
	if spec.Mode != "central" {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	st, closeFn, err := openCoord(ctx, spec.Name, r.recordConn(spec))
	if errors.Is(err, coord.ErrNoDatabase) {
		return
	}
	if err == nil {
		defer closeFn()
		_, err = st.Atomic().Delete(recordKey()).Commit(ctx)
	}
	if err != nil {
		diags.AddWarning("dwk_fleet: the fleet's record was not deleted", err.Error())
	}
}

// ImportState adopts a running central-mode fleet by name from its record.
func (r *fleetResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	fail := func(detail string) {
		resp.Diagnostics.AddError("Cannot import dwk_fleet "+req.ID, detail)
	}
	ctx, cancel := context.WithTimeout(ctx, recordTimeout)
	defer cancel()
	lc := r.recordConn(nil)
	st, closeFn, err := openCoord(ctx, req.ID, lc)
	if err != nil {
		fail(fmt.Sprintf("%v.\n\nImport by name reads the record a central-mode fleet keeps in its coordination database, through the provider's libsql connection.", err))
		return
	}
	defer closeFn()
	e, err := st.Get(ctx, recordKey())
	if err != nil {
		fail(err.Error())
		return
	}
	if !e.Exists() {
		fail(fmt.Sprintf("The coordination database of fleet %q at %s holds no record of a dwk_fleet. Every apply of a central-mode fleet writes one; "+
			"a local-mode fleet keeps none (its hosts share no store), so it cannot be imported: apply it again, which redeploys the hosts in place.", req.ID, lc.URL))
		return
	}
	var rec fleetRecord
	if err := json.Unmarshal(e.Value, &rec); err != nil {
		fail("The fleet's record does not decode: " + err.Error())
		return
	}
	if rec.Version > recordVersion {
		fail(fmt.Sprintf("The fleet's record has version %d, newer than this provider reads (%d): upgrade the provider.", rec.Version, recordVersion))
		return
	}
	raw, warnings, err := decodeRecord(ctx, resp.State.Schema, rec)
	if err != nil {
		fail(err.Error())
		return
	}
	for _, w := range warnings {
		resp.Diagnostics.AddWarning("dwk_fleet "+req.ID+": part of the record was not read", w)
	}
	resp.State.Raw = raw
	v, _ := json.Marshal(rec.Salt)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, saltKey, v)...)
}

// encodeRecord encodes each top-level attribute of state.
func encodeRecord(state tfsdk.State, salt string) (fleetRecord, error) {
	rec := fleetRecord{Version: recordVersion, Salt: salt, Written: time.Now().UTC(), Attributes: map[string][]byte{}}
	obj, ok := state.Raw.Type().(tftypes.Object)
	if !ok {
		return rec, fmt.Errorf("state is a %s, not an object", state.Raw.Type())
	}
	var vals map[string]tftypes.Value
	if err := state.Raw.As(&vals); err != nil {
		return rec, err
	}
	for name, v := range vals {
		dv, err := tfprotov6.NewDynamicValue(obj.AttributeTypes[name], v)
		if err != nil {
			return rec, fmt.Errorf("encode %s: %w", name, err)
		}
		rec.Attributes[name] = dv.MsgPack
	}
	return rec, nil
}

// decodeRecord builds a state of schema from rec: an attribute the record
// lacks, or holds in a shape the schema no longer has, is null.
func decodeRecord(ctx context.Context, schema interface{ Type() attr.Type }, rec fleetRecord) (tftypes.Value, []string, error) {
	obj, ok := schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		return tftypes.Value{}, nil, errors.New("the schema is not an object")
	}
	names := make([]string, 0, len(obj.AttributeTypes))
	for n := range obj.AttributeTypes {
		names = append(names, n)
	}
	sort.Strings(names)
	vals := map[string]tftypes.Value{}
	var warnings []string
	for _, n := range names {
		t := obj.AttributeTypes[n]
		vals[n] = tftypes.NewValue(t, nil)
		b, ok := rec.Attributes[n]
		if !ok {
			continue
		}
		v, err := (&tfprotov6.DynamicValue{MsgPack: b}).Unmarshal(t)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %v; it reads as null, and the plan shows what the configuration sets.", n, err))
			continue
		}
		vals[n] = v
	}
	return tftypes.NewValue(obj, vals), warnings, nil
}
