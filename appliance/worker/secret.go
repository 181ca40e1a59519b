package worker

import (
	"encoding/json"
	"log/slog"
)

// Secret is the value of a secret binding (dwk.json's bindings.secrets,
// Cloudflare's secrets): a string that does not show itself. Printing it
// with fmt (%v, %s, %q, %#v), logging it with slog or encoding it as JSON
// yields "[secret]"; Reveal returns the value, for the one place that
// needs it (an Authorization header, a signing key).
type Secret string

const secretMask = "[secret]"

// Reveal returns the secret's value.
func (s Secret) Reveal() string { return string(s) }

// String returns "[secret]", not the value.
func (Secret) String() string { return secretMask }

// GoString returns "[secret]", not the value.
func (Secret) GoString() string { return secretMask }

// LogValue makes slog log "[secret]", not the value.
func (Secret) LogValue() slog.Value { return slog.StringValue(secretMask) }

// MarshalJSON encodes "[secret]", not the value.
func (Secret) MarshalJSON() ([]byte, error) { return json.Marshal(secretMask) }

var (
	_ slog.LogValuer = Secret("")
	_ json.Marshaler = Secret("")
)
