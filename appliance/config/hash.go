package config

import (
	"crypto/sha256"
	"encoding/hex"
)

// Hash is a stable digest of the configuration with defaults applied. A
// replica reports it, and the Terraform provider compares it with the hash
// of the config it rendered, so changes made on a host show up as drift.
func (c *Config) Hash() string {
	b, err := Encode(c)
	if err != nil {
		return ""
	}
	cp, err := Decode(b)
	if err != nil {
		return ""
	}
	cp.ApplyDefaults()
	b, _ = Encode(cp)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
