package d1migrations

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// DefaultPattern is the glob migration files match, relative to the
// migrations directory, when the wrangler file sets no migrations_pattern.
const DefaultPattern = "*.sql"

// ErrNoDir is wrapped by Find's error when the migrations directory does
// not exist.
var ErrNoDir = errors.New("no migrations directory")

// File is one migration file.
type File struct {
	// Name is the file's path relative to the migrations directory, with
	// forward slashes: the name its tracking row records.
	Name string
	// Path is the file's path, or where it lies in its archive.
	Path string

	fsys fs.FS // set when the file is in one (FindFS)
}

// Read returns the file's content.
func (f File) Read() ([]byte, error) {
	if f.fsys != nil {
		return fs.ReadFile(f.fsys, f.Name)
	}
	return os.ReadFile(f.Path)
}

// FindFS is Find for migrations in fsys (a built project's archive),
// whose root is the migrations directory; label names it in messages and
// in each File's Path.
func FindFS(fsys fs.FS, label, pattern string) ([]File, error) {
	if pattern == "" {
		pattern = DefaultPattern
	}
	pattern = strings.Trim(path.Clean(filepath.ToSlash(pattern)), "/")
	if _, err := path.Match(strings.ReplaceAll(pattern, "**", "*"), ""); err != nil {
		return nil, fmt.Errorf("migrations pattern %q: %w", pattern, err)
	}
	segs := strings.Split(pattern, "/")
	var out []File
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == "." {
			return nil
		}
		if d.IsDir() {
			if !matchPrefix(segs, strings.Split(p, "/")) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && match(segs, strings.Split(p, "/")) {
			out = append(out, File{Name: p, Path: label + "/" + p, fsys: fsys})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read migrations %s: %w", label, err)
	}
	sort.Slice(out, func(i, j int) bool { return Compare(out[i].Name, out[j].Name) < 0 })
	return out, nil
}

// Find returns the files under dir whose path relative to dir matches
// pattern ("" for DefaultPattern), in the order they are applied.
func Find(dir, pattern string) ([]File, error) {
	if pattern == "" {
		pattern = DefaultPattern
	}
	pattern = strings.Trim(path.Clean(filepath.ToSlash(pattern)), "/")
	if _, err := path.Match(strings.ReplaceAll(pattern, "**", "*"), ""); err != nil {
		return nil, fmt.Errorf("migrations pattern %q: %w", pattern, err)
	}
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w %s: create it and put the migrations in it as NNNN_name.sql files, or set migrations_dir in the wrangler file", ErrNoDir, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("migrations directory: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("migrations directory %s is a file: migrations_dir must name a directory", dir)
	}
	segs := strings.Split(pattern, "/")
	var out []File
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if d.IsDir() {
			if !matchPrefix(segs, strings.Split(name, "/")) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && match(segs, strings.Split(name, "/")) {
			out = append(out, File{Name: name, Path: p})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read migrations directory %s: %w", dir, err)
	}
	sort.Slice(out, func(i, j int) bool { return Compare(out[i].Name, out[j].Name) < 0 })
	return out, nil
}

// Compare orders two migration names as wrangler does
// (compareMigrationPaths): segment by segment, by the integer before the
// first '_' of each segment, numbered before unnumbered, ties in byte
// order; a name that is a prefix of another, segment-wise, first.
func Compare(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if c := compareSegment(as[i], bs[i]); c != 0 {
			return c
		}
	}
	return len(as) - len(bs)
}

func compareSegment(a, b string) int {
	an, aok := leadingNumber(a)
	bn, bok := leadingNumber(b)
	switch {
	case aok && bok && an != bn:
		if an < bn {
			return -1
		}
		return 1
	case aok && !bok:
		return -1
	case !aok && bok:
		return 1
	}
	return strings.Compare(a, b)
}

// leadingNumber is JavaScript's parseInt of the part of seg before its
// first '_': the digits it starts with (after an optional sign and
// leading spaces), if any.
func leadingNumber(seg string) (float64, bool) {
	head, _, _ := strings.Cut(seg, "_")
	head = strings.TrimLeft(head, " \t\n\r\f\v")
	i := 0
	if i < len(head) && (head[i] == '+' || head[i] == '-') {
		i++
	}
	j := i
	for j < len(head) && head[j] >= '0' && head[j] <= '9' {
		j++
	}
	if j == i {
		return 0, false
	}
	n, err := strconv.ParseFloat(head[:j], 64)
	return n, err == nil
}

// match reports whether the path segments name match the pattern
// segments pat: "**" matches any number of segments, other segments
// match as path.Match does, and a wildcard never matches a leading dot.
func match(pat, name []string) bool {
	if len(pat) == 0 {
		return len(name) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(name); i++ {
			if i > 0 && strings.HasPrefix(name[i-1], ".") {
				return false
			}
			if match(pat[1:], name[i:]) {
				return true
			}
		}
		return false
	}
	return len(name) > 0 && matchSegment(pat[0], name[0]) && match(pat[1:], name[1:])
}

// matchPrefix reports whether a directory whose path segments are dir
// may hold a file the pattern matches.
func matchPrefix(pat, dir []string) bool {
	for i, d := range dir {
		if i >= len(pat) {
			return false
		}
		if pat[i] == "**" {
			return !strings.HasPrefix(d, ".")
		}
		if !matchSegment(pat[i], d) {
			return false
		}
	}
	return true
}

func matchSegment(pat, name string) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(pat, ".") {
		return false
	}
	ok, _ := path.Match(pat, name)
	return ok
}
