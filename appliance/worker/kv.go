package worker

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// ErrNotFound is returned when a key or object does not exist.
var ErrNotFound = errors.New("not found")

// KVNamespace is a Workers KV namespace: an eventually consistent key-value
// store with expiry and per-key metadata. Keys are at most 512 bytes, values
// at most 25 MiB, metadata at most 1024 bytes of JSON.
type KVNamespace interface {
	// Get returns the value of key, or ErrNotFound if it is missing or expired.
	Get(ctx context.Context, key string) ([]byte, error)
	// GetWithMetadata returns the value and its metadata (nil if none was
	// stored), or ErrNotFound.
	GetWithMetadata(ctx context.Context, key string) ([]byte, json.RawMessage, error)
	// GetMany is Cloudflare's bulk get (get and getWithMetadata with an
	// array of keys): the values and metadata of up to KVMaxGetMany keys
	// in one call. Missing and expired keys are absent from the map; more
	// than KVMaxGetMany keys fail with ErrKVTooManyKeys.
	GetMany(ctx context.Context, keys []string) (map[string]KVEntry, error)
	// Put stores value under key, replacing any previous value and metadata.
	Put(ctx context.Context, key string, value []byte, opts *KVPutOptions) error
	// Delete removes key. Deleting a missing key is not an error.
	Delete(ctx context.Context, key string) error
	// List returns keys in byte order, at most Limit (default and maximum
	// 1000) per call, continuing from Cursor.
	List(ctx context.Context, opts *KVListOptions) (*KVListResult, error)
}

// KVMaxGetMany is the most keys one KVNamespace.GetMany takes.
const KVMaxGetMany = 100

// KVEntry is one key's value and metadata (nil if none was stored), as
// GetMany returns it.
type KVEntry struct {
	Value    []byte
	Metadata json.RawMessage
}

// KVPutOptions are the optional parts of a put. At most one of Expiration and
// ExpirationTTL may be set.
type KVPutOptions struct {
	// Expiration is the absolute time the key expires.
	Expiration time.Time
	// ExpirationTTL is how long from now the key lives. Unlike Cloudflare,
	// any positive duration is accepted (Cloudflare requires 60 s or more).
	ExpirationTTL time.Duration
	// Metadata is stored with the key; it must be valid JSON.
	Metadata json.RawMessage
}

// KVListOptions select the keys List returns.
type KVListOptions struct {
	Prefix string
	// Limit is the maximum number of keys returned; 0 means 1000.
	Limit  int
	Cursor string
}

// KVListResult is one page of List.
type KVListResult struct {
	Keys []KVKey
	// ListComplete is true when no more keys follow.
	ListComplete bool
	// Cursor continues the listing when ListComplete is false.
	Cursor string
}

// KVKey is one listed key.
type KVKey struct {
	Name string
	// Expiration is zero when the key does not expire.
	Expiration time.Time
	Metadata   json.RawMessage
}

// Errors for bad KV input.
var (
	ErrKVKeyInvalid      = errors.New("kv: key must be 1 to 512 bytes and not \".\" or \"..\"")
	ErrKVValueTooLarge   = errors.New("kv: value exceeds 25 MiB")
	ErrKVMetadataInvalid = errors.New("kv: metadata must be valid JSON of at most 1024 bytes")
	ErrKVTooManyKeys     = errors.New("kv: a bulk get takes at most 100 keys; split it into several calls")
	ErrKVExpiration      = errors.New("kv: expiration must be in the future and only one of Expiration and ExpirationTTL may be set")
)

type unboundKV struct{ err error }

var _ KVNamespace = unboundKV{}

func (u unboundKV) Get(context.Context, string) ([]byte, error) { return nil, u.err }
func (u unboundKV) GetWithMetadata(context.Context, string) ([]byte, json.RawMessage, error) {
	return nil, nil, u.err
}
func (u unboundKV) GetMany(context.Context, []string) (map[string]KVEntry, error) {
	return nil, u.err
}
func (u unboundKV) Put(context.Context, string, []byte, *KVPutOptions) error { return u.err }
func (u unboundKV) Delete(context.Context, string) error                     { return u.err }
func (u unboundKV) List(context.Context, *KVListOptions) (*KVListResult, error) {
	return nil, u.err
}
