package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// Secret is a value kept out of the file when wanted. In JSON it is either a
// literal string or an object naming where to read it:
//
//	"secret": "s3cr3t"
//	"secret": {"env": "DWK_FLEET_SECRET"}
//	"secret": {"file": "/etc/dwk/fleet-secret"}
//
// A file's trailing newline is dropped.
type Secret struct {
	Value string `json:"-"`
	Env   string `json:"env,omitempty"`
	File  string `json:"file,omitempty"`
}

// Literal returns a Secret holding v.
func Literal(v string) *Secret { return &Secret{Value: v} }

// UnmarshalJSON accepts a string or {"env"|"file": ...}.
func (s *Secret) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &s.Value)
	}
	type plain Secret
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	var p plain
	if err := d.Decode(&p); err != nil {
		return fmt.Errorf(`a secret is a string or {"env": NAME} or {"file": PATH}: %w`, err)
	}
	*s = Secret(p)
	return nil
}

// MarshalJSON writes the literal, or the env/file reference.
func (s Secret) MarshalJSON() ([]byte, error) {
	if s.Env == "" && s.File == "" {
		return json.Marshal(s.Value)
	}
	type plain Secret
	return json.Marshal(plain(s))
}

// errSecretSource is a secret whose env var or file is missing or empty.
var errSecretSource = errors.New("secret source")

// Resolve returns the secret's value, reading the environment or file.
func (s *Secret) Resolve() (string, error) {
	if s == nil {
		return "", nil
	}
	switch {
	case s.Env != "" && s.File != "":
		return "", fmt.Errorf("%w: set only one of env and file", errSecretSource)
	case s.Env != "":
		v, ok := os.LookupEnv(s.Env)
		if !ok || v == "" {
			return "", fmt.Errorf("%w: environment variable %s is not set", errSecretSource, s.Env)
		}
		return v, nil
	case s.File != "":
		b, err := os.ReadFile(s.File)
		if err != nil {
			return "", fmt.Errorf("%w: %v", errSecretSource, err)
		}
		v := strings.TrimRight(string(b), "\r\n")
		if v == "" {
			return "", fmt.Errorf("%w: file %s is empty", errSecretSource, s.File)
		}
		return v, nil
	}
	return s.Value, nil
}

// String never shows the value.
func (s Secret) String() string {
	switch {
	case s.Env != "":
		return "env:" + s.Env
	case s.File != "":
		return "file:" + s.File
	case s.Value != "":
		return "<literal>"
	}
	return "<empty>"
}
