package worker

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func TestSecretDoesNotShow(t *testing.T) {
	const value = "s3cr3t-value"
	env := NewEnv("w", Bindings{Secrets: map[string]Secret{"API_KEY": value}})
	s, ok := env.Secret("API_KEY")
	if !ok || s.Reveal() != value {
		t.Fatalf("Secret(API_KEY) = %v, %v; want the value from Reveal", ok, s.Reveal() == value)
	}
	if _, ok := env.Secret("OTHER"); ok {
		t.Error("an unbound secret is reported set")
	}
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	log.Info("x", "secret", s, "env", env)
	log.Info("y", "bindings", Bindings{Secrets: map[string]Secret{"K": value}})
	b, err := json.Marshal(map[string]any{"s": s})
	if err != nil {
		t.Fatal(err)
	}
	shown := []string{
		fmt.Sprint(s), fmt.Sprintf("%s %q %#v %+v", s, s, s, s), fmt.Sprintf("%v %+v %#v", env, env, env),
		fmt.Sprintf("%v %+v", Bindings{Secrets: map[string]Secret{"K": value}}, map[string]Secret{"K": value}),
		string(b), logs.String(),
	}
	for _, out := range shown {
		if strings.Contains(out, value) {
			t.Errorf("secret value shown: %s", out)
		}
	}
	if !strings.Contains(logs.String(), "[secret]") {
		t.Errorf("log does not mark the secret: %s", logs.String())
	}
}
