package backup

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// StateFile is the file in a namespace directory where the backup records
// how far it has shipped. Losing it only costs a new generation.
const StateFile = "backup.json"

// nsState is how far a namespace's WAL has been shipped, and into which
// generation.
type nsState struct {
	// Generation is the generation's name and GenTime its start.
	Generation string    `json:"generation"`
	GenTime    time.Time `json:"gen_time"`
	// Seq is the number of the next WAL segment. The file is written when
	// a generation starts and at checkpoints only; Seq, the salts, Frame
	// and Checkpointed may lag behind the bucket, which catchUp reads.
	Seq uint64 `json:"seq"`
	// Salt1 and Salt2 identify the WAL incarnation (they change when
	// SQLite restarts the WAL after a full checkpoint); both are zero
	// when the WAL was empty.
	Salt1 uint32 `json:"salt1"`
	Salt2 uint32 `json:"salt2"`
	// Frame is how many frames of that incarnation are shipped (or in the
	// snapshot).
	Frame uint32 `json:"frame"`
	// Checkpointed is set when the backup's own checkpoint copied all
	// those frames into the database file, so that SQLite may restart
	// the WAL (with Salt1+1).
	Checkpointed bool `json:"checkpointed"`
	// DBSize and DBModTime are the database file's after the backup's
	// last snapshot or checkpoint. Only checkpoints write the file in WAL
	// mode and only the backup checkpoints, so a difference means someone
	// else did (the server ran without backup): the WAL's history is
	// incomplete and a new generation starts.
	DBSize    int64 `json:"db_size"`
	DBModTime int64 `json:"db_mod_time"`
}

// loadState reads dir's state; a missing or unreadable file is nil.
func loadState(dir string) *nsState {
	b, err := os.ReadFile(filepath.Join(dir, StateFile))
	if err != nil {
		return nil
	}
	var st nsState
	if json.Unmarshal(b, &st) != nil || st.Generation == "" {
		return nil
	}
	return &st
}

// save replaces dir's state atomically. It is written after the objects
// it describes are in S3, so it never claims more than was shipped; it is
// not synced: an older state is caught up from the bucket's listing.
func (st *nsState) save(dir string) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, StateFile+".tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("write backup state: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, StateFile)); err != nil {
		return fmt.Errorf("write backup state: %w", err)
	}
	return nil
}

// statDB returns the database file's size and modification time.
func statDB(path string) (int64, int64, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	return fi.Size(), fi.ModTime().UnixNano(), nil
}
