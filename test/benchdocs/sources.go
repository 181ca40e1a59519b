package benchdocs

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Errors of Sources.Lookup.
var (
	// ErrNoSource: the marker names a result file that does not exist.
	ErrNoSource = errors.New("no such result file")
	// ErrNoFigure: the result file has no figure under the key.
	ErrNoFigure = errors.New("no such figure")
)

// Results is the part of a result file that docs quote.
type Results struct {
	Figures map[string]Figure `json:"figures"`
}

// Sources reads result files from one directory (bench/), each once.
type Sources struct {
	dir   string
	files map[string]map[string]Figure
}

// NewSources reads result files from dir on demand.
func NewSources(dir string) *Sources {
	return &Sources{dir: dir, files: map[string]map[string]Figure{}}
}

// FileKey is the key every result file answers with its own path, as
// code: a doc names the file it quotes with a marker too, so quoting
// another run is one change of source.
const FileKey = "_file"

// Lookup returns the figure key of result file source (dir/source.json),
// or for FileKey the file's path. It is a Lookup.
func (s *Sources) Lookup(source, key string) (Figure, error) {
	figs, err := s.load(source)
	if err != nil {
		return Figure{}, err
	}
	if key == FileKey {
		return Text("`" + ResultsDir + "/" + source + ".json`"), nil
	}
	f, ok := figs[key]
	if !ok {
		return Figure{}, fmt.Errorf("%s: %q: %w (go run ./test/benchdocs/docfigures -list shows the keys)", s.path(source), key, ErrNoFigure)
	}
	return f, nil
}

// Keys lists every figure of every result file in dir as "source:key".
func (s *Sources) Keys() ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(s.dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range paths {
		src := strings.TrimSuffix(filepath.Base(p), ".json")
		figs, err := s.load(src)
		if err != nil {
			return nil, err
		}
		for k, f := range figs {
			out = append(out, src+":"+k+"\t"+f.Text)
		}
	}
	sort.Strings(out)
	return out, nil
}

func (s *Sources) path(source string) string { return filepath.Join(s.dir, source+".json") }

func (s *Sources) load(source string) (map[string]Figure, error) {
	if figs, ok := s.files[source]; ok {
		return figs, nil
	}
	data, err := os.ReadFile(s.path(source))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", s.path(source), ErrNoSource)
	}
	if err != nil {
		return nil, err
	}
	var r Results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", s.path(source), err)
	}
	s.files[source] = r.Figures
	return r.Figures, nil
}
