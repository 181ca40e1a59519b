package workersecrets

import (
	"errors"
	"fmt"
)

// Limits of a secret, as Cloudflare sets them where it has them.
const (
	// MaxValueBytes is the largest value: 5 KiB, Cloudflare's limit for
	// a secret.
	MaxValueBytes = 5 << 10
	// MaxNameLen is the longest secret name.
	MaxNameLen = 256
)

// ErrInvalid is wrapped by every error about a name or value a caller
// gave: the message says what to change.
var ErrInvalid = errors.New("invalid secret")

// ValidName reports whether name can name a secret: letters, digits and
// underscores, not starting with a digit (a JavaScript identifier that
// env.NAME reaches), at most MaxNameLen characters.
func ValidName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: the name is empty", ErrInvalid)
	}
	if len(name) > MaxNameLen {
		return fmt.Errorf("%w: the name is %d characters long; at most %d", ErrInvalid, len(name), MaxNameLen)
	}
	for i, c := range name {
		letter := c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return fmt.Errorf("%w: name %q: use letters, digits and underscores, not starting with a digit (for example API_TOKEN)", ErrInvalid, name)
		}
	}
	return nil
}

// validValue checks a value's size.
func validValue(v []byte) error {
	switch {
	case len(v) == 0:
		return fmt.Errorf("%w: the value is empty", ErrInvalid)
	case len(v) > MaxValueBytes:
		return fmt.Errorf("%w: the value is %d bytes; at most %d", ErrInvalid, len(v), MaxValueBytes)
	}
	return nil
}
