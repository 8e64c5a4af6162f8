// Package catalog is the read side of solidarity before a database exists: it finds
// reference datasets and cycles, and computes keys and pools from them for the CLI, the
// web server and the ledger service alike. It returns the computed, exact results
// (key.Key, pool.Result); rendering them is package report's, at the edges.
//
// Two catalogs, so that who may read files is a type, not a careful caller:
//
//   - Catalog resolves only what the binary embeds (the shipped datasets and cycles).
//     It opens no file: the server and the ledger service use it, so a cycle recorded
//     in the ledger that names a path on the server as its dataset is refused, never
//     read.
//   - Files also reads datasets saved by `solidarity data import` and files named by
//     path, and cycle files: the CLI's, on the operator's own machine.
package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"solidarity"
	"solidarity/apportion"
	"solidarity/internal/cyclefile"
	"solidarity/internal/eurostat"
	"solidarity/internal/refdata"
	"solidarity/key"
	"solidarity/pool"
)

// datasets resolves a dataset reference: what Key and Pool need of a catalog.
type datasets interface {
	Dataset(ref string) (*solidarity.Dataset, error)
}

// Catalog resolves the datasets and cycles the binary embeds, and nothing else: it
// cannot open a path. The zero value is ready to use.
type Catalog struct{}

// Dataset resolves ref as a shipped dataset id; anything else is ENOTFOUND, whether or
// not a file of that name exists.
func (*Catalog) Dataset(ref string) (*solidarity.Dataset, error) {
	if d, ok := refdata.Lookup(ref); ok {
		return d, nil
	}
	return nil, &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "dataset",
		Message: fmt.Sprintf("no shipped dataset %q (%s)", ref, strings.Join(refdata.IDs(), ", "))}
}

// Cycle resolves a shipped cycle by its year.
func (*Catalog) Cycle(year int) (*solidarity.Cycle, error) {
	src, err := cyclefile.ShippedSource(year)
	if err != nil {
		return nil, err
	}
	return cyclefile.Parse(fmt.Sprintf("cycles/%d.toml", year), src)
}

// Key computes the Art. 66 reference key from shipped datasets.
func (c *Catalog) Key(req KeyRequest) (*key.Key, *solidarity.Dataset, *solidarity.Dataset, error) {
	return computeKey(c, req)
}

// Pool computes the pool of a cycle on shipped datasets.
func (c *Catalog) Pool(req PoolRequest) (*Pool, error) { return computePool(c, req) }

// Files is a catalog that also reads files: datasets saved in DataDir and datasets and
// cycles named by path. Only the CLI uses it. The zero value reads no DataDir.
type Files struct {
	// DataDir holds datasets saved by `solidarity data import`; "" for none.
	DataDir string

	mu    sync.Mutex
	files map[string]*solidarity.Dataset // datasets read from files, by path
}

// Dataset resolves ref: a shipped dataset id, an id of a dataset in DataDir, or a path
// to a file in our provenance CSV or any Eurostat format.
func (c *Files) Dataset(ref string) (*solidarity.Dataset, error) {
	if d, ok := refdata.Lookup(ref); ok {
		return d, nil
	}
	path := ref
	if c.DataDir != "" && !strings.ContainsAny(ref, `/\`) {
		if p := filepath.Join(c.DataDir, ref+".csv"); fileExists(p) {
			path = p
		}
	}
	if !fileExists(path) {
		return nil, &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "dataset",
			Message: fmt.Sprintf("no dataset %q: not a shipped dataset (%s) and no such file", ref, strings.Join(refdata.IDs(), ", "))}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.files[path]; ok {
		return d, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: path, Message: "cannot read dataset"}
	}
	defer f.Close()
	d, err := refdata.Load(path, f, eurostat.Options{})
	if err != nil {
		return nil, err
	}
	if c.files == nil {
		c.files = map[string]*solidarity.Dataset{}
	}
	c.files[path] = d
	return d, nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// Cycle resolves a --cycle argument: a shipped year or a TOML file.
func (c *Files) Cycle(arg string) (*solidarity.Cycle, error) { return cyclefile.Open(arg) }

// Key computes the Art. 66 reference key and returns it with the datasets it used.
func (c *Files) Key(req KeyRequest) (*key.Key, *solidarity.Dataset, *solidarity.Dataset, error) {
	return computeKey(c, req)
}

// Pool computes the pool of a cycle.
func (c *Files) Pool(req PoolRequest) (*Pool, error) { return computePool(c, req) }

// KeyRequest selects the inputs of a reference key.
type KeyRequest struct {
	Participating []solidarity.MemberState // nil: the Part IV states
	Population    string                   // dataset ref; "" for the default
	GDP           string
}

func computeKey(c datasets, req KeyRequest) (*key.Key, *solidarity.Dataset, *solidarity.Dataset, error) {
	if req.Participating == nil {
		req.Participating = solidarity.PartIV()
	}
	if req.Population == "" {
		req.Population = refdata.DefaultPopulation().ID
	}
	if req.GDP == "" {
		req.GDP = refdata.DefaultGDP().ID
	}
	pop, err := c.Dataset(req.Population)
	if err != nil {
		return nil, nil, nil, err
	}
	gdp, err := c.Dataset(req.GDP)
	if err != nil {
		return nil, nil, nil, err
	}
	if pop.Indicator != solidarity.Population {
		return nil, nil, nil, &solidarity.Error{Code: solidarity.EINVALID, File: pop.ID, Field: "population",
			Message: fmt.Sprintf("dataset holds %s, not population", pop.Indicator)}
	}
	if gdp.Indicator != solidarity.GDP {
		return nil, nil, nil, &solidarity.Error{Code: solidarity.EINVALID, File: gdp.ID, Field: "gdp",
			Message: fmt.Sprintf("dataset holds %s, not GDP", gdp.Indicator)}
	}
	in, err := key.FromDatasets(req.Participating, pop, gdp)
	if err != nil {
		return nil, nil, nil, err
	}
	k, err := key.Reference(in)
	return k, pop, gdp, err
}

// PoolRequest selects a pool computation.
type PoolRequest struct {
	Cycle  *solidarity.Cycle
	Method string    // "" for the cycle's own method, else round-up
	AsOf   time.Time // zero: every deduction
}

// Pool is a computed pool with the datasets its key was computed on and the cycle's
// warnings (cyclefile.Warnings): what report.FromPool renders.
type Pool struct {
	*pool.Result
	Population, GDP *solidarity.Dataset
	Warnings        []string
}

func computePool(c datasets, req PoolRequest) (*Pool, error) {
	cy := req.Cycle
	m := req.Method
	if m == "" {
		m = cy.Method
	}
	if m == "" {
		m = string(apportion.RoundUp)
	}
	method, err := apportion.ParseMethod(m)
	if err != nil {
		return nil, err
	}
	k, pop, gdp, err := computeKey(c, KeyRequest{Participating: cy.Participating, Population: cy.PopulationData, GDP: cy.GDPData})
	if err != nil {
		return nil, solidarity.At(err, cy.File)
	}
	r, err := pool.Compute(cy, k, method, req.AsOf)
	if err != nil {
		return nil, err
	}
	return &Pool{Result: r, Population: pop, GDP: gdp, Warnings: cyclefile.Warnings(cy)}, nil
}
