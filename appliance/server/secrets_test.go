package server

import (
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/config"
)

func TestSecretBindingsResolve(t *testing.T) {
	t.Setenv("DWK_TEST_SECRET_BINDING", "value-from-env")
	wc := config.Worker{Name: "w", Bindings: config.Bindings{Secrets: map[string]*config.Secret{
		"KEY": {Env: "DWK_TEST_SECRET_BINDING"},
	}}}
	b, err := bindings(wc, nil, newServices())
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Secrets["KEY"].Reveal(); got != "value-from-env" {
		t.Errorf("KEY = %q, want the variable's value", got)
	}
	wc.Bindings.Secrets["GONE"] = &config.Secret{Env: "DWK_TEST_SECRET_UNSET"}
	if _, err := bindings(wc, nil, newServices()); err == nil || !strings.Contains(err.Error(), "secret GONE") || !strings.Contains(err.Error(), "DWK_TEST_SECRET_UNSET") {
		t.Errorf("unset secret: err = %v, want one naming the binding and the variable", err)
	}
}
