package config

import (
	"crypto/sha256"
	"encoding/hex"
)

// Hash is a stable digest of the configuration with defaults applied. A
// replica reports it, and the Terraform provider compares it with the hash
// of the config it rendered, so changes made on a host show up as drift.
// After KeepFileHash it is the digest of the config as it was then.
func (c *Config) Hash() string {
	if c.fileHash != "" {
		return c.fileHash
	}
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

// KeepFileHash fixes Hash at the config's present digest: call it on a
// config as its file gave it, before the Workers projects it names fill in
// their workers' names, bindings and routes, so that the replica reports
// the hash of its file.
func (c *Config) KeepFileHash() {
	c.fileHash = "" // Hash then digests the config as it is now
	c.fileHash = c.Hash()
}
