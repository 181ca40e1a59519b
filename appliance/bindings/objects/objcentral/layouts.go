package objcentral

import (
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// An object's state lives as rows at its primary (see pages.go) in one of
// two layouts:
//
//   - packed: in one of the packs of its shard, databases shared by many
//     objects whose reserved tables key every row by the object's
//     database name (packs.go). Every object created by this version goes
//     there, so creating one makes no database.
//   - solo: in a database of its own, named after the object (name.go),
//     as earlier versions made them. Such objects stay there.
//
// Both layouts have the same statements with the same results; a packed
// statement takes the object's name as ?1 and the solo statement's
// arguments after it.
type layout struct {
	packed bool
	// schema creates the reserved tables; packs are set up once, before
	// their first use.
	schema []string
	// epochRaise stores epoch ?1 unless a higher epoch is stored already.
	epochRaise string
	// epochBump is epochRaise that only changes an object already there.
	epochBump   string
	epochSelect string
	// epochGuard fails with a constraint error unless the stored epoch is
	// exactly ?1, whether it is higher (a newer holder), lower, or
	// missing, so it stops every later step of its transaction.
	epochGuard string
	// headGuard fails with a constraint error unless the object's head is
	// at generation ?1 and version ?2: a commit stops there when the rows
	// are not those its copy was made from.
	headGuard string
	// replicaInit gives a new object's head its generation ?1.
	replicaInit    string
	replicaSelect  string
	replicaVersion string
	// pagesSince returns the pages a copy at generation ?1, version ?2
	// lacks: those written after ?2 when the generation matches and the
	// copy is not ahead of the primary, every page otherwise.
	pagesSince string
	// pagesUpsert writes one page (?1 its number, ?2 its version, ?3 its
	// bytes); commits repeat it per page.
	pagesUpsert   string
	pagesTruncate string
	// replicaAdvance moves the head from version ?4 to ?1 (size ?2 pages
	// of ?3 bytes); the commit checks that it changed one row.
	replicaAdvance string
}

// solo is the layout of a database of the object's own: the reserved
// tables hold one row for the object.
var solo = layout{
	schema: []string{
		`CREATE TABLE IF NOT EXISTS _dwk_epoch (k INTEGER PRIMARY KEY CHECK (k = 0), epoch INTEGER NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS _dwk_replica (k INTEGER PRIMARY KEY CHECK (k = 0),
			gen TEXT NOT NULL, version INTEGER NOT NULL, pages INTEGER NOT NULL, page_size INTEGER NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS _dwk_pages (pgno INTEGER PRIMARY KEY, version INTEGER NOT NULL, data BLOB NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS _dwk_pages_version ON _dwk_pages (version)`,
	},
	epochRaise: `INSERT INTO _dwk_epoch (k, epoch) VALUES (0, ?1)
		ON CONFLICT (k) DO UPDATE SET epoch = excluded.epoch WHERE excluded.epoch > _dwk_epoch.epoch`,
	epochBump:   `UPDATE _dwk_epoch SET epoch = ?1 WHERE k = 0 AND epoch < ?1`,
	epochSelect: `SELECT epoch FROM _dwk_epoch WHERE k = 0`,
	epochGuard: `INSERT INTO _dwk_epoch (k, epoch) SELECT 0, NULL
		WHERE NOT EXISTS (SELECT 1 FROM _dwk_epoch WHERE k = 0 AND epoch = ?1)`,
	headGuard: `INSERT INTO _dwk_epoch (k, epoch) SELECT 0, NULL
		WHERE NOT EXISTS (SELECT 1 FROM _dwk_replica WHERE k = 0 AND gen = ?1 AND version = ?2)`,
	replicaInit:    `INSERT INTO _dwk_replica (k, gen, version, pages, page_size) VALUES (0, ?1, 0, 0, 0) ON CONFLICT (k) DO NOTHING`,
	replicaSelect:  `SELECT gen, version, pages, page_size FROM _dwk_replica WHERE k = 0`,
	replicaVersion: `SELECT version FROM _dwk_replica WHERE k = 0`,
	pagesSince: `SELECT pgno, data FROM _dwk_pages
		WHERE version > (SELECT CASE WHEN gen = ?1 AND version >= ?2 THEN ?2 ELSE -1 END FROM _dwk_replica WHERE k = 0)
		AND pgno <= (SELECT pages FROM _dwk_replica WHERE k = 0) ORDER BY pgno`,
	pagesUpsert: `INSERT INTO _dwk_pages (pgno, version, data) VALUES (?1, ?2, ?3)
		ON CONFLICT (pgno) DO UPDATE SET version = excluded.version, data = excluded.data`,
	pagesTruncate:  `DELETE FROM _dwk_pages WHERE pgno > ?1`,
	replicaAdvance: `UPDATE _dwk_replica SET version = ?1, pages = ?2, page_size = ?3 WHERE k = 0 AND version = ?4`,
}

// packed is the layout of a pack: the reserved tables hold a row per
// object (per page for _dwk_object_pages), keyed by obj, the object's
// database name.
var packed = layout{
	packed: true,
	schema: []string{
		`CREATE TABLE IF NOT EXISTS _dwk_object_epochs (obj TEXT PRIMARY KEY, epoch INTEGER NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS _dwk_object_heads (obj TEXT PRIMARY KEY,
			gen TEXT NOT NULL, version INTEGER NOT NULL, pages INTEGER NOT NULL, page_size INTEGER NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS _dwk_object_pages (obj TEXT NOT NULL, pgno INTEGER NOT NULL,
			version INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (obj, pgno))`,
		`CREATE INDEX IF NOT EXISTS _dwk_object_pages_version ON _dwk_object_pages (obj, version)`,
	},
	epochRaise: `INSERT INTO _dwk_object_epochs (obj, epoch) VALUES (?1, ?2)
		ON CONFLICT (obj) DO UPDATE SET epoch = excluded.epoch WHERE excluded.epoch > _dwk_object_epochs.epoch`,
	epochBump:   `UPDATE _dwk_object_epochs SET epoch = ?2 WHERE obj = ?1 AND epoch < ?2`,
	epochSelect: `SELECT epoch FROM _dwk_object_epochs WHERE obj = ?1`,
	epochGuard: `INSERT INTO _dwk_object_epochs (obj, epoch) SELECT ?1, NULL
		WHERE NOT EXISTS (SELECT 1 FROM _dwk_object_epochs WHERE obj = ?1 AND epoch = ?2)`,
	headGuard: `INSERT INTO _dwk_object_epochs (obj, epoch) SELECT ?1, NULL
		WHERE NOT EXISTS (SELECT 1 FROM _dwk_object_heads WHERE obj = ?1 AND gen = ?2 AND version = ?3)`,
	replicaInit: `INSERT INTO _dwk_object_heads (obj, gen, version, pages, page_size) VALUES (?1, ?2, 0, 0, 0)
		ON CONFLICT (obj) DO NOTHING`,
	replicaSelect:  `SELECT gen, version, pages, page_size FROM _dwk_object_heads WHERE obj = ?1`,
	replicaVersion: `SELECT version FROM _dwk_object_heads WHERE obj = ?1`,
	pagesSince: `SELECT pgno, data FROM _dwk_object_pages
		WHERE obj = ?1 AND version > (SELECT CASE WHEN gen = ?2 AND version >= ?3 THEN ?3 ELSE -1 END FROM _dwk_object_heads WHERE obj = ?1)
		AND pgno <= (SELECT pages FROM _dwk_object_heads WHERE obj = ?1) ORDER BY pgno`,
	pagesUpsert: `INSERT INTO _dwk_object_pages (obj, pgno, version, data) VALUES (?1, ?2, ?3, ?4)
		ON CONFLICT (obj, pgno) DO UPDATE SET version = excluded.version, data = excluded.data`,
	pagesTruncate:  `DELETE FROM _dwk_object_pages WHERE obj = ?1 AND pgno > ?2`,
	replicaAdvance: `UPDATE _dwk_object_heads SET version = ?2, pages = ?3, page_size = ?4 WHERE obj = ?1 AND version = ?5`,
}

// schemaHere is what every round trip that may make an object's rows
// runs first: the solo schema; packs were set up before their first use.
func (l *layout) schemaHere() []string {
	if l.packed {
		return nil
	}
	return l.schema
}

// home is where one object's rows are: a database and its layout.
type home struct {
	c   *hranaclient.Client
	lay *layout
	obj string // the object's database name, the key of its rows in a pack
}

// stmt is the statement sql of h's layout with args, the object's key
// first in a pack.
func (h home) stmt(sql string, args ...hrana.Value) hrana.Stmt {
	if h.lay.packed {
		args = append([]hrana.Value{hrana.Text(h.obj)}, args...)
	}
	return hrana.NewStmt(sql, args...)
}

// where names h for errors and logs.
func (h home) where() string {
	if h.lay.packed {
		return "pack " + h.c.Namespace()
	}
	return "database " + h.c.Namespace()
}
