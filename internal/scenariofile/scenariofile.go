// Package scenariofile reads the TOML file that describes a simulation scenario
// (docs/scenario-file.md) and embeds the scenarios shipped with solidarity.
//
// Reading is strict like the cycle files': an unknown key, an unknown state, a rate
// outside [0, 1] or a CSV row that does not parse is an error naming the file, the
// line and the field, and nothing of a rejected file is used. A file may start from a
// shipped scenario (base = "NAME") and change only what it names: that is how the
// What-if page writes the file a user downloads.
//
// scenariofile.go decodes (Parse, Open, the shipped scenarios); number.go reads a
// number with its source and certainty; build.go turns decoded files into a
// simulation.Scenario; csv.go reads the data files.
package scenariofile

import (
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"solidarity"
	"solidarity/internal/bound"
	"solidarity/internal/tomlpos"
	"solidarity/simulation"
)

//go:embed scenarios/*.toml scenarios/data/*.csv
var embedded embed.FS

// shipped is the embedded scenarios directory: the shipped files name their data
// relative to it ("data/observed-2015.csv").
var shipped, _ = fs.Sub(embedded, "scenarios")

// Doc is the reference of the format, named in errors about unknown keys.
const Doc = "docs/scenario-file.md"

// limits bound a scenario file before it is decoded. A shipped scenario holds under
// 300 values; its bulk (arrivals, published figures) lives in CSV files, which have
// bounds of their own (csv.go).
var limits = bound.Limits{Values: 10_000}

// Info describes a shipped scenario.
type Info struct {
	Name         string             `json:"name"`
	Title        string             `json:"title"`
	Note         string             `json:"note"`
	Illustrative bool               `json:"illustrative"`
	Rules        simulation.RuleSet `json:"rules"`
}

// Shipped returns the scenarios embedded in the binary, by name.
func Shipped() []Info { return append([]Info(nil), shippedInfo()...) }

// shippedInfo reads the shipped scenarios once: they cannot change while the binary runs.
var shippedInfo = sync.OnceValue(func() []Info {
	entries, _ := fs.ReadDir(shipped, ".")
	var out []Info
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".toml")
		if !ok {
			continue
		}
		s, err := parseShipped(name)
		if err != nil {
			// A shipped scenario that does not parse is a build error, caught by
			// TestShippedScenarios; listing it would only hide it.
			continue
		}
		out = append(out, Info{Name: name, Title: s.Title, Note: s.Note, Illustrative: s.Illustrative, Rules: s.Rules})
	}
	return out
})

// ShippedSource returns the TOML text of a shipped scenario.
func ShippedSource(name string) ([]byte, error) {
	if !validName(name) {
		return nil, notShipped(name)
	}
	b, err := fs.ReadFile(shipped, name+".toml")
	if err != nil {
		return nil, notShipped(name)
	}
	return b, nil
}

func notShipped(name string) error {
	var names []string
	entries, _ := fs.ReadDir(shipped, ".")
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".toml"); ok {
			names = append(names, n)
		}
	}
	return &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "base",
		Message: fmt.Sprintf("no shipped scenario %q (shipped: %s)", name, strings.Join(names, ", "))}
}

// validName keeps a scenario name to the characters the shipped names use, so that a
// name can never walk out of the embedded directory.
func validName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func parseShipped(name string) (*simulation.Scenario, error) {
	src, err := ShippedSource(name)
	if err != nil {
		return nil, err
	}
	return parse(name+".toml", name, src, shipped, 0)
}

// Open resolves a command-line argument: the name of a shipped scenario, or the path
// of a scenario file, whose data files and cycle file are read relative to its
// directory. It also returns the file's text, for a download that reproduces it.
func Open(arg string) (*simulation.Scenario, []byte, error) {
	if validName(arg) && !strings.HasSuffix(arg, "toml") {
		if src, err := ShippedSource(arg); err == nil {
			s, err := parseShipped(arg)
			return s, src, err
		}
		if _, err := os.Stat(arg); err != nil {
			return nil, nil, notShipped(arg)
		}
	}
	src, err := readFile(arg, int64(bound.Default.Bytes))
	if err != nil {
		return nil, nil, &solidarity.Error{Code: solidarity.EINVALID, File: arg,
			Message: "cannot read scenario file: " + strings.TrimPrefix(err.Error(), "open "+arg+": ")}
	}
	dir, err := filepath.Abs(filepath.Dir(arg))
	if err != nil {
		return nil, nil, err
	}
	s, err := Parse(filepath.Base(arg), src, os.DirFS(dir))
	return s, src, err
}

// readFile reads at most max bytes and one more, so that a huge file (or /dev/zero)
// is refused by the size bound instead of being read whole.
func readFile(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max+1))
}

// Parse reads a scenario from text and checks it by preparing it (every obligation
// computed), so that a file that parses also runs. name is used in errors. dir is
// where the file's relative paths (data files, a cycle file, datasets) are read
// from; nil means only the shipped data: the API and the web pages never read a
// server's files.
func Parse(name string, src []byte, dir fs.FS) (*simulation.Scenario, error) {
	return parse(name, strings.TrimSuffix(filepath.Base(name), ".toml"), src, dir, 0)
}

// maxBase bounds a chain of bases (a file based on a shipped scenario based on
// another): the shipped ones go one deep.
const maxBase = 3

func parse(file, name string, src []byte, dir fs.FS, depth int) (*simulation.Scenario, error) {
	d, err := load(file, name, src, dir, depth)
	if err != nil {
		return nil, err
	}
	return d.finish()
}

// load decodes one file over its base: the base's layers first, then this file's.
func load(file, name string, src []byte, dir fs.FS, depth int) (*draft, error) {
	if err := bound.TOML(file, src, limits); err != nil {
		return nil, err
	}
	var f fileScenario
	loc, err := tomlpos.Decode(file, src, &f, Doc)
	if err != nil {
		return nil, err
	}
	l := &layer{file: file, f: &f, loc: loc, dir: dir}
	var d *draft
	if f.Base != "" {
		if depth >= maxBase {
			return nil, l.errorf("base", "a chain of more than %d bases", maxBase)
		}
		bsrc, err := ShippedSource(f.Base)
		if err != nil {
			return nil, l.wrap("base", err)
		}
		if d, err = load(f.Base+".toml", f.Base, bsrc, shipped, depth+1); err != nil {
			return nil, err
		}
		d.s.Name = name
	} else {
		d = newDraft(name)
	}
	d.layers = append(d.layers, l)
	if err := d.apply(l); err != nil {
		return nil, err
	}
	return d, nil
}
