package datadir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSecondOpenRefused(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, "local", "local")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir, "local", "local")
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: err = %v, want ErrLocked", err)
	}
	if !strings.Contains(err.Error(), "locked by another dwk serve") {
		t.Errorf("message does not say why: %v", err)
	}
	d.Close()
	d2, err := Open(dir, "local", "local")
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	d2.Close()
}

func TestMarkerChecks(t *testing.T) {
	tests := []struct {
		name, marker string
		want         error
	}{
		{"central", `{"mode":"central","fleet":"local","schema":1}`, ErrWrongMode},
		{"other fleet", `{"mode":"local","fleet":"prod","schema":1}`, ErrWrongMode},
		{"newer schema", `{"mode":"local","fleet":"local","schema":99}`, ErrSchemaNewer},
		{"garbage", `not json`, ErrWrongMode},
		{"ok", `{"mode":"local","fleet":"local","schema":1}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, MarkerFile), []byte(tt.marker), 0o600)
			d, err := Open(dir, "local", "local")
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if d != nil {
				d.Close()
			}
		})
	}
}

func TestSecretIsStable(t *testing.T) {
	d, err := Open(t.TempDir(), "local", "local")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	a, err := d.Secret()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := d.Secret()
	if a != b || len(a) != 64 {
		t.Errorf("secrets %q, %q: want one stable 64-hex secret", a, b)
	}
}

func TestCentralRefusesLocalDir(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, "local", "prod")
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	_, err = Open(dir, "central", "prod")
	if !errors.Is(err, ErrWrongMode) || !strings.Contains(err.Error(), "holds local-mode data") {
		t.Fatalf("central Open of a local dir: %v", err)
	}
}
