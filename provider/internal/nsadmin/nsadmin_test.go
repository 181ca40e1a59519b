package nsadmin

import (
	"context"
	"errors"
	"testing"

	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/test/libsqlserver"
)

func TestSetConfig(t *testing.T) {
	srv := libsqlserver.Start(t)
	c, err := New(srv.AdminURL, srv.AdminKey, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ns := libsqlserver.Namespace("nsadmin")
	if err := c.SetConfig(ctx, ns, Block{BlockWrites: true}); !errors.Is(err, libsqladmin.ErrNotFound) {
		t.Errorf("SetConfig of a missing namespace: %v, want ErrNotFound", err)
	}
	if err := c.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	defer c.Delete(ctx, ns)
	reason := "maintenance"
	if err := c.SetConfig(ctx, ns, Block{BlockReads: true, BlockReason: &reason}); err != nil {
		t.Fatal(err)
	}
	got, err := c.Config(ctx, ns)
	if err != nil {
		t.Fatal(err)
	}
	if !got.BlockReads || got.BlockWrites || got.BlockReason == nil || *got.BlockReason != reason {
		t.Errorf("config = %s", got.Raw)
	}
}
