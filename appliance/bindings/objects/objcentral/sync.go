package objcentral

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// openResult is what the one round trip of an open learned.
type openResult struct {
	head   head
	pages  map[int64][]byte // pages the local copy lacks
	legacy bool             // tables of the earlier row format are present
}

// setupStmts set up an object's rows at h: create the reserved tables
// (of a database of its own), raise its epoch to epoch and give it
// generation gen, unless already done.
func setupStmts(h home, epoch int64, gen string) []hrana.Stmt {
	var out []hrana.Stmt
	for _, sql := range h.lay.schemaHere() {
		out = append(out, noRows(hrana.NewStmt(sql)))
	}
	return append(out,
		noRows(h.stmt(h.lay.epochRaise, hrana.Integer(epoch))),
		noRows(h.stmt(h.lay.replicaInit, hrana.Text(gen))),
	)
}

// errNotHere: openPrimary, told not to make the object's rows, found none.
var errNotHere = errors.New("the object has no rows there")

// openPrimary raises the object's epoch at h to epoch and, in the same
// round trip, reads its head and the pages a copy at (gen, version) lacks
// (every page when local is nil). Unless create is set, it only raises an
// epoch already stored, and fails with errNotHere when there is none. It
// fails with an error wrapping objects.ErrFenced if a higher epoch is
// stored.
func openPrimary(ctx context.Context, h home, epoch int64, local *copyMeta, create bool) (openResult, error) {
	gen, version := "", int64(-1)
	if local != nil {
		gen, version = local.Gen, local.Version
	}
	stmts := []hrana.Stmt{hrana.NewStmt(`BEGIN IMMEDIATE`)}
	for _, sql := range h.lay.schemaHere() {
		stmts = append(stmts, hrana.NewStmt(sql))
	}
	if create {
		stmts = append(stmts,
			noRows(h.stmt(h.lay.epochRaise, hrana.Integer(epoch))),
			noRows(h.stmt(h.lay.replicaInit, hrana.Text(newGeneration()))))
	} else {
		stmts = append(stmts, noRows(h.stmt(h.lay.epochBump, hrana.Integer(epoch))))
	}
	iEpoch := len(stmts)
	stmts = append(stmts,
		h.stmt(h.lay.epochSelect),
		h.stmt(h.lay.replicaSelect),
		h.stmt(h.lay.pagesSince, hrana.Text(gen), hrana.Integer(version)))
	iLegacy := -1
	if !h.lay.packed {
		iLegacy = len(stmts)
		stmts = append(stmts, hrana.NewStmt(legacyTables))
	}
	stmts = append(stmts, hrana.NewStmt(`COMMIT`))
	commit := len(stmts) - 1
	res, err := h.c.Batch(ctx, append(chain(stmts...), rollbackStep(0, commit)))
	if err != nil {
		return openResult{}, fmt.Errorf("open: %w", err)
	}
	for i := 0; i <= commit; i++ {
		if e := hranaclient.StepError(res, i); e != nil {
			return openResult{}, fmt.Errorf("open: step %d: %w", i, e)
		}
	}
	if !hranaclient.StepRan(res, commit) {
		return openResult{}, errors.New("open: COMMIT did not run")
	}
	if r := res.StepResults[iEpoch]; !create && r != nil && len(r.Rows) == 0 {
		return openResult{}, errNotHere
	}
	stored, err := epochOf(res.StepResults[iEpoch])
	if err != nil {
		return openResult{}, fmt.Errorf("open: %w", err)
	}
	if stored != epoch {
		return openResult{}, fmt.Errorf("%w: this holder has epoch %d, the object is held at epoch %d", objects.ErrFenced, epoch, stored)
	}
	hd, err := headOf(res.StepResults[iEpoch+1])
	if err != nil {
		return openResult{}, fmt.Errorf("open: %w", err)
	}
	out := openResult{head: hd, pages: map[int64][]byte{}}
	for _, row := range res.StepResults[iEpoch+2].Rows {
		if len(row) != 2 || row[0].Kind != hrana.KindInteger || row[1].Kind != hrana.KindBlob {
			return openResult{}, errors.New("open: malformed page row")
		}
		page, err := decodePage(row[1].Blob, hd.pageSize)
		if err != nil {
			return openResult{}, fmt.Errorf("open: page %d: %w", row[0].Int, err)
		}
		out.pages[row[0].Int] = page
	}
	if iLegacy >= 0 {
		if r := res.StepResults[iLegacy]; r != nil && len(r.Rows) == 1 && len(r.Rows[0]) == 1 {
			out.legacy = r.Rows[0][0].Int > 0
		}
	}
	return out, nil
}

// headOf decodes the result of the layout's replicaSelect.
func headOf(r *hrana.StmtResult) (head, error) {
	if r == nil || len(r.Rows) != 1 || len(r.Rows[0]) != 4 {
		return head{}, errors.New("the object has no head row")
	}
	row := r.Rows[0]
	if row[0].Kind != hrana.KindText || row[1].Kind != hrana.KindInteger || row[2].Kind != hrana.KindInteger || row[3].Kind != hrana.KindInteger {
		return head{}, errors.New("the object's head row is malformed")
	}
	return head{gen: row[0].Text, version: row[1].Int, pages: row[2].Int, pageSize: int(row[3].Int)}, nil
}

// current reports whether a copy described by local equals the primary
// at h without fetching a page.
func current(local *copyMeta, h head) bool {
	return local != nil && local.Gen == h.gen && local.Version == h.version
}

// applyPages brings the replica file at path to the primary's state h:
// over the copy described by local when its generation matches and it is
// not ahead (incremental), otherwise from nothing. pages are what
// openPrimary fetched for that copy.
func applyPages(path string, local *copyMeta, h head, pages map[int64][]byte) error {
	incremental := local != nil && local.Gen == h.gen && local.Version <= h.version
	if !incremental {
		if err := objlocal.RemoveFiles(path); err != nil {
			return err
		}
	}
	if h.pages == 0 {
		return objlocal.RemoveFiles(path)
	}
	if h.pageSize < 512 {
		return fmt.Errorf("primary names page size %d", h.pageSize)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	for pgno, data := range pages {
		if len(data) != h.pageSize {
			return fmt.Errorf("page %d holds %d bytes, want %d", pgno, len(data), h.pageSize)
		}
		if _, err := f.WriteAt(data, (pgno-1)*int64(h.pageSize)); err != nil {
			return err
		}
	}
	if err := f.Truncate(h.pages * int64(h.pageSize)); err != nil {
		return err
	}
	return f.Close()
}

// newGeneration is a random id for a new primary database.
func newGeneration() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
