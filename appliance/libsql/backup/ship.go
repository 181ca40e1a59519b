package backup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// shipment is what one locked look at a namespace found to upload.
type shipment struct {
	// next is the state once the upload succeeded; nil: nothing to do.
	next *nsState
	// snapshot, when not nil, starts generation next.Generation.
	snapshot []byte
	config   []byte
	// frames of page size pageSize go into segment seq.
	frames   []byte
	pageSize uint32
	seq      uint64
	// more is set when the WAL holds further frames than one read takes.
	more bool
}

// sync ships namespace name's new frames, starting a generation when it
// has none, its snapshot is due, or its WAL history cannot be followed.
// more reports that frames remain for another round.
func (r *Replicator) sync(ctx context.Context, name string) (more bool, err error) {
	rep := r.rep(name)
	rep.mu.Lock()
	defer rep.mu.Unlock()
	if rep.gone {
		return false, nil
	}
	dir, err := r.src.Dir(name)
	if errors.Is(err, ErrGone) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !rep.loaded {
		st := loadState(dir)
		if st != nil {
			if err := r.catchUp(ctx, name, st); err != nil {
				return false, err
			}
		}
		rep.st, rep.loaded = st, true
	}
	var sh shipment
	err = r.src.Locked(ctx, name, func(cp Checkpointer) error {
		var err error
		sh, err = r.look(ctx, name, dir, rep.st, cp)
		return err
	})
	if errors.Is(err, ErrGone) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if sh.next != nil {
		if err := r.upload(ctx, name, sh); err != nil {
			return false, err
		}
		if sh.snapshot != nil {
			// Segments do not rewrite the state file (a file system
			// metadata change per upload would slow the commits' fsyncs);
			// a restart finds them by listing (catchUp).
			if err := sh.next.save(dir); err != nil {
				return false, err
			}
			r.lastSnapshot.Store(sh.next.GenTime.UnixNano())
			if rep.st != nil {
				// The previous generations may now be past retention.
				if err := r.prune(ctx, name); err != nil {
					r.log.Warn("backup: prune old generations", "namespace", name, "err", err)
				}
			}
		}
		rep.st = sh.next
	}
	if rep.st != nil && rep.configDirty.Swap(false) {
		cfg, err := readConfig(dir)
		if err == nil {
			err = r.st.put(ctx, name+"/"+rep.st.Generation+"/"+configName, encodeObject(kindConfig, cfg))
		}
		if err != nil {
			rep.configDirty.Store(true)
			return false, err
		}
		r.uploaded()
	}
	return sh.more, nil
}

// look reads, under the namespace's write lock, what there is to ship.
// A checkpoint is due when the WAL grew long: its frames are uploaded
// here, still under the lock, so that no frame is checkpointed (and then
// lost to a WAL restart) before it is in S3.
func (r *Replicator) look(ctx context.Context, name, dir string, st *nsState, cp Checkpointer) (shipment, error) {
	now := r.now()
	if st == nil || now.Sub(st.GenTime) >= r.cfg.SnapshotInterval {
		return r.startGeneration(dir, st, cp)
	}
	from, ok, err := follow(dir, st)
	if err != nil {
		return shipment{}, err
	}
	if !ok {
		r.log.Info("backup: WAL history not followable, starting a new generation", "namespace", name)
		return r.startGeneration(dir, st, cp)
	}
	t, err := readWAL(filepath.Join(dir, DataFile+"-wal"), from.frame)
	if errors.Is(err, errLostPosition) {
		return r.startGeneration(dir, st, cp)
	}
	if err != nil {
		return shipment{}, err
	}
	if len(t.frames) == 0 {
		return shipment{}, nil
	}
	next := *st
	next.Seq++
	next.Salt1, next.Salt2, next.Frame, next.Checkpointed = t.hdr.Salt1, t.hdr.Salt2, t.last, false
	sh := shipment{next: &next, frames: t.frames, pageSize: t.hdr.PageSize, seq: st.Seq, more: len(t.frames) >= maxReadBytes}
	if t.last < checkpointFrames {
		return sh, nil
	}
	if err := r.putSegment(ctx, name, st.Generation, sh); err != nil {
		return shipment{}, err
	}
	complete, err := cp.Checkpoint()
	if err != nil {
		return shipment{}, fmt.Errorf("checkpoint: %w", err)
	}
	next.Checkpointed = complete
	if next.DBSize, next.DBModTime, err = statDB(filepath.Join(dir, DataFile)); err != nil {
		return shipment{}, err
	}
	if err := next.save(dir); err != nil {
		return shipment{}, err
	}
	// The segment is shipped; the caller has only the state to keep.
	return shipment{next: &next, more: sh.more}, nil
}

// walPos is where reading a WAL starts: after frame of its current
// incarnation.
type walPos struct{ frame uint32 }

// follow decides where the WAL continues the shipped history: after the
// shipped frames of the same incarnation, or at the start of the next one
// when the backup's own checkpoint let SQLite restart it. ok is false
// when the history has a gap.
func follow(dir string, st *nsState) (walPos, bool, error) {
	size, mod, err := statDB(filepath.Join(dir, DataFile))
	if err != nil {
		return walPos{}, false, err
	}
	if size != st.DBSize || mod != st.DBModTime {
		return walPos{}, false, nil
	}
	h, valid, err := readWALHeader(filepath.Join(dir, DataFile+"-wal"))
	if err != nil {
		return walPos{}, false, err
	}
	empty := st.Salt1 == 0 && st.Salt2 == 0 && st.Frame == 0
	switch {
	case !valid:
		return walPos{}, empty, nil
	case h.Salt1 == st.Salt1 && h.Salt2 == st.Salt2:
		return walPos{st.Frame}, true, nil
	case empty, st.Checkpointed && h.Salt1 == st.Salt1+1:
		return walPos{0}, true, nil
	}
	return walPos{}, false, nil
}

// startGeneration checkpoints as far as readers allow and reads the
// database file, plus the WAL frames the checkpoint could not copy, as
// the snapshot of a new generation.
func (r *Replicator) startGeneration(dir string, prev *nsState, cp Checkpointer) (shipment, error) {
	now := r.now()
	if prev != nil && !now.After(prev.GenTime) {
		now = prev.GenTime.Add(1)
	}
	complete, err := cp.Checkpoint()
	if err != nil {
		return shipment{}, fmt.Errorf("checkpoint: %w", err)
	}
	path := filepath.Join(dir, DataFile)
	next := &nsState{Generation: timeName(now), GenTime: now, Seq: 0, Checkpointed: complete}
	if next.DBSize, next.DBModTime, err = statDB(path); err != nil {
		return shipment{}, err
	}
	db, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return shipment{}, fmt.Errorf("read database: %w", err)
	}
	t, err := readWAL(path+"-wal", 0)
	if err != nil {
		return shipment{}, err
	}
	if t.valid {
		next.Salt1, next.Salt2, next.Frame = t.hdr.Salt1, t.hdr.Salt2, t.last
	}
	cfg, err := readConfig(dir)
	if err != nil {
		return shipment{}, err
	}
	sh := shipment{next: next, snapshot: db, config: cfg, more: len(t.frames) >= maxReadBytes}
	if !complete && len(t.frames) > 0 {
		sh.frames, sh.pageSize, sh.seq = t.frames, t.hdr.PageSize, 0
		next.Seq = 1
	}
	if db == nil {
		sh.snapshot = []byte{}
	}
	return sh, nil
}

// upload puts a shipment's objects. A generation's snapshot goes last:
// restore only uses generations that have one.
func (r *Replicator) upload(ctx context.Context, name string, sh shipment) error {
	gen := sh.next.Generation
	if len(sh.frames) > 0 {
		if err := r.putSegment(ctx, name, gen, sh); err != nil {
			return err
		}
	}
	if sh.snapshot == nil {
		return nil
	}
	if err := r.st.put(ctx, name+"/"+gen+"/"+configName, encodeObject(kindConfig, sh.config)); err != nil {
		return err
	}
	if err := r.st.put(ctx, name+"/"+gen+"/"+snapshotName, encodeObject(kindSnapshot, sh.snapshot)); err != nil {
		return err
	}
	r.uploaded()
	return nil
}

func (r *Replicator) putSegment(ctx context.Context, name, gen string, sh shipment) error {
	key := name + "/" + gen + "/" + segmentName(segInfo{seq: sh.seq, at: r.now(), salt1: sh.next.Salt1, salt2: sh.next.Salt2, frame: sh.next.Frame})
	if err := r.st.put(ctx, key, encodeSegment(sh.pageSize, sh.frames)); err != nil {
		return err
	}
	r.uploaded()
	return nil
}

// catchUp moves st, as read from the state file, past the segments the
// bucket holds beyond it: the file is rewritten only when a generation
// starts and at checkpoints, so after a restart the last segment's key
// says where shipping stopped.
func (r *Replicator) catchUp(ctx context.Context, name string, st *nsState) error {
	keys, _, err := r.st.list(ctx, name+"/"+st.Generation+"/"+walDir, "")
	if err != nil {
		return err
	}
	var last *segInfo
	for _, k := range keys {
		i, ok := parseSegmentName(strings.TrimPrefix(k, name+"/"+st.Generation+"/"))
		if !ok || i.seq < st.Seq {
			continue
		}
		if last == nil || i.seq > last.seq || i.seq == last.seq && i.frame > last.frame {
			last = &i
		}
	}
	if last != nil {
		st.Seq = last.seq + 1
		st.Salt1, st.Salt2, st.Frame = last.salt1, last.salt2, last.frame
		st.Checkpointed = false
	}
	return nil
}

// readConfig reads the namespace configuration file; missing is "{}".
func readConfig(dir string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if errors.Is(err, os.ErrNotExist) {
		return []byte("{}"), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read namespace config: %w", err)
	}
	return b, nil
}

// scan marks the namespaces whose WAL holds frames the state does not
// account for, or that have no state: reading files only, it opens no
// database.
func (r *Replicator) scan() {
	for _, name := range r.src.Names() {
		dir, err := r.src.Dir(name)
		if err != nil {
			continue
		}
		st := loadState(dir)
		if st == nil || unshipped(dir, st) {
			r.Changed(name)
		}
	}
}

// unshipped reports whether dir's WAL may hold frames beyond st.
func unshipped(dir string, st *nsState) bool {
	from, ok, err := follow(dir, st)
	if err != nil || !ok {
		return true
	}
	t, err := readWAL(filepath.Join(dir, DataFile+"-wal"), from.frame)
	return err != nil || len(t.frames) > 0
}
