package libsql

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// nsConfig is a namespace's configuration, the subset of sqld's
// DatabaseConfig that dwk stores. It is kept in <dir>/config.json.
type nsConfig struct {
	// BlockReads refuses every statement; BlockWrites refuses statements
	// that write. BlockReason is added to the error message.
	BlockReads  bool    `json:"block_reads"`
	BlockWrites bool    `json:"block_writes"`
	BlockReason *string `json:"block_reason"`
	// JWTKey, when set, replaces the server's JWT keys for this namespace.
	JWTKey *string `json:"jwt_key"`
	// The remaining fields are stored and reported but have no effect.
	MaxDBSize      json.RawMessage `json:"max_db_size"`
	HeartbeatURL   *string         `json:"heartbeat_url"`
	AllowAttach    bool            `json:"allow_attach"`
	TxnTimeoutS    *uint64         `json:"txn_timeout_s"`
	DurabilityMode *string         `json:"durability_mode"`
}

// namespace is one database: a directory holding the SQLite file "data".
type namespace struct {
	name string
	dir  string
	pool *connPool
	// writeGate serialises autocommit writes so that they queue in Go
	// instead of polling SQLite's busy handler.
	writeGate chan struct{}
	// backup, when set, is told of commits and configuration changes,
	// and checkpoints the WAL itself.
	backup backupHooks

	mu      sync.Mutex
	cfg     nsConfig
	keys    []ed25519.PublicKey
	streams map[*stream]struct{}
	closed  bool
}

// dataFile is the SQLite file of a namespace directory, named as in sqld.
const dataFile = "data"

// configFile holds the namespace's nsConfig.
const configFile = "config.json"

func (ns *namespace) path() string { return filepath.Join(ns.dir, dataFile) }

// config returns the namespace configuration and its parsed JWT keys.
func (ns *namespace) config() (nsConfig, []ed25519.PublicKey) {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	return ns.cfg, ns.keys
}

// setConfig validates, stores and applies cfg.
func (ns *namespace) setConfig(cfg nsConfig) error {
	keys, err := cfg.parseKeys()
	if err != nil {
		return err
	}
	if err := writeConfig(ns.dir, cfg); err != nil {
		return err
	}
	ns.mu.Lock()
	ns.cfg, ns.keys = cfg, keys
	ns.mu.Unlock()
	if ns.backup != nil {
		ns.backup.ConfigChanged(ns.name)
	}
	return nil
}

// isDefault reports whether c is the config of a namespace created without
// one, which a spare namespace has.
func (c nsConfig) isDefault() bool {
	a, _ := json.Marshal(c)
	b, _ := json.Marshal(nsConfig{})
	return string(a) == string(b)
}

// changed tells the backup that a transaction committed.
func (ns *namespace) changed() {
	if ns.backup != nil {
		ns.backup.Changed(ns.name)
	}
}

func (c nsConfig) parseKeys() ([]ed25519.PublicKey, error) {
	if c.JWTKey == nil || *c.JWTKey == "" {
		return nil, nil
	}
	keys, err := ParseJWTKeys(*c.JWTKey)
	if err != nil {
		return nil, fmt.Errorf("jwt_key: %w", err)
	}
	return keys, nil
}

// register adds st to the namespace's open streams; it fails once the
// namespace is closing.
func (ns *namespace) register(st *stream) bool {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if ns.closed {
		return false
	}
	ns.streams[st] = struct{}{}
	return true
}

func (ns *namespace) unregister(st *stream) {
	ns.mu.Lock()
	delete(ns.streams, st)
	ns.mu.Unlock()
}

// shutdown stops admission of new streams, interrupts and closes the open
// ones (rolling back their transactions), optionally checkpoints the WAL
// into the database file, and closes the pool. It is bounded by ctx.
func (ns *namespace) shutdown(ctx context.Context, checkpoint bool) error {
	ns.mu.Lock()
	ns.closed = true
	open := make([]*stream, 0, len(ns.streams))
	for st := range ns.streams {
		open = append(open, st)
	}
	ns.mu.Unlock()

	if err := closeStreams(ctx, open); err != nil {
		return fmt.Errorf("namespace %s: %w", ns.name, err)
	}
	var cpErr error
	if checkpoint {
		cpErr = ns.checkpoint()
	}
	if err := ns.pool.close(); err != nil {
		return fmt.Errorf("namespace %s: close connections: %w", ns.name, err)
	}
	return cpErr
}

// checkpoint copies the WAL into the database file and truncates it.
// With a backup, only the backup checkpoints (after shipping the frames):
// this asks it to ship now.
func (ns *namespace) checkpoint() error {
	if ns.backup != nil {
		ns.backup.Changed(ns.name)
		return nil
	}
	c, err := ns.pool.get()
	if err != nil {
		return fmt.Errorf("namespace %s: checkpoint: %w", ns.name, err)
	}
	res, err := c.QueryInt64s("PRAGMA wal_checkpoint(TRUNCATE)")
	ns.pool.put(c, err == nil)
	if err != nil {
		return fmt.Errorf("namespace %s: checkpoint: %w", ns.name, err)
	}
	if len(res) > 0 && res[0] != 0 {
		return fmt.Errorf("namespace %s: %w", ns.name, errCheckpointBusy)
	}
	return nil
}

// closeStreams interrupts and closes streams concurrently, waiting at most
// until ctx is done. Closing waits for a running request to finish; the
// interrupt makes that quick.
func closeStreams(ctx context.Context, streams []*stream) error {
	if len(streams) == 0 {
		return nil
	}
	var wg sync.WaitGroup
	for _, st := range streams {
		st.interrupt()
		wg.Add(1)
		go func() {
			defer wg.Done()
			st.close()
		}()
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("close %d streams: %w", len(streams), ctx.Err())
	}
}

// readConfig reads dir/config.json; a missing file is the zero config.
func readConfig(dir string) (nsConfig, error) {
	var cfg nsConfig
	data, err := os.ReadFile(filepath.Join(dir, configFile))
	if os.IsNotExist(err) {
		return cfg, nil
	}
	if err != nil {
		return cfg, fmt.Errorf("read namespace config: %w", err)
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return cfg, fmt.Errorf("parse %s: %w", filepath.Join(dir, configFile), err)
	}
	return cfg, nil
}

// writeConfig replaces dir/config.json atomically.
func writeConfig(dir string, cfg nsConfig) error {
	data, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return fmt.Errorf("encode namespace config: %w", err)
	}
	tmp := filepath.Join(dir, configFile+".tmp")
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("write namespace config: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, configFile)); err != nil {
		return fmt.Errorf("write namespace config: %w", err)
	}
	return nil
}
