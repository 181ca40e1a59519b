package artifact

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Format is the version of the artifact format this package writes and
// reads. A reader refuses an artifact of another format.
const Format = 1

// Names of the archive's members.
const (
	// ManifestName is the manifest's member: dwk-project.json.
	ManifestName = "dwk-project.json"
	// ScriptEntry is the bundled script's member (bundle.ScriptName).
	ScriptEntry = "worker.js"
	// SourceMapEntry is the script's source map.
	SourceMapEntry = ScriptEntry + ".map"
	// ModulesDir holds the Data and CompiledWasm modules, as
	// ModulesDir + "/" + index.
	ModulesDir = "modules"
	// AssetsDir holds the assets directory's files.
	AssetsDir = "assets"
	// MigrationsDir holds each D1 database's migration files, as
	// MigrationsDir + "/" + binding + "/" + name.
	MigrationsDir = "migrations"
)

// Ext is the file name extension of an artifact.
const Ext = ".dwkb"

// Manifest is the archive's dwk-project.json: what the artifact holds and
// the hashes that prove it.
type Manifest struct {
	// Format is the artifact format's version: Format.
	Format int `json:"format"`
	// Name is the worker's name (wrangler's name, with the environment's
	// suffix when one was picked).
	Name string `json:"name"`
	// Project is the resolved wrangler configuration, paths relative to
	// the archive and without secret values.
	Project Config `json:"project"`
	// BundleHash is the bundle's Hash (bundle.Bundle.Hash) as built: the
	// same project gives the same hash wherever it is bundled.
	BundleHash string `json:"bundle_hash"`
	// Modules are the bundle's Data and CompiledWasm modules, in the
	// order of their indices.
	Modules []Module `json:"modules"`
	// Entries are the archive's members but the manifest, sorted by name,
	// each with its size and SHA-256.
	Entries []Entry `json:"entries"`
	// ContentHash is the hex SHA-256 of the manifest's canonical encoding
	// without this field (see Manifest.Encode): it covers every entry's
	// hash, so it names the artifact's content.
	ContentHash string `json:"content_hash,omitempty"`
}

// Module is one of the bundle's Data or CompiledWasm modules.
type Module struct {
	// Entry is its member: "modules/<index>".
	Entry string `json:"entry"`
	// Name is the module's path in the project, slash-separated, relative
	// to the project's directory (bundle.Module.Name).
	Name string `json:"name"`
	// Type is "Data" or "CompiledWasm".
	Type string `json:"type"`
}

// Entry is one member of the archive.
type Entry struct {
	// Name is the member's path in the archive, slash-separated.
	Name string `json:"name"`
	// Size is its length in bytes, uncompressed.
	Size int64 `json:"size"`
	// SHA256 is the hex SHA-256 of its content, uncompressed.
	SHA256 string `json:"sha256"`
}

// Encode returns the manifest's canonical encoding, as the archive holds
// it: encoding/json with two-space indentation, fields in the order of
// the Go types, map keys sorted, no HTML escaping, one trailing newline.
func (m *Manifest) Encode() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("encode %s: %w", ManifestName, err)
	}
	return buf.Bytes(), nil
}

// Hash computes the content hash: the hex SHA-256 of the canonical
// encoding of m with ContentHash left out.
func (m *Manifest) Hash() (string, error) {
	c := *m
	c.ContentHash = ""
	b, err := c.Encode()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
