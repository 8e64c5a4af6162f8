// Package catalog is the read side of solidarity before a database exists: it finds
// reference datasets (shipped, imported or given as files) and cycles (shipped or
// files), and computes keys and pools from them for the CLI and the web server alike.
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
	"solidarity/internal/report"
	"solidarity/key"
	"solidarity/pool"
)

// Catalog resolves names of datasets and cycles. The zero value uses only what the
// binary embeds.
type Catalog struct {
	// DataDir holds datasets saved by `solidarity data import`; "" for none.
	DataDir string

	mu    sync.Mutex
	files map[string]*solidarity.Dataset // datasets read from files, by path
}

// Dataset resolves ref: a shipped dataset id, an id of a dataset in DataDir, or a path
// to a file in our provenance CSV or any Eurostat format.
func (c *Catalog) Dataset(ref string) (*solidarity.Dataset, error) {
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
func (c *Catalog) Cycle(arg string) (*solidarity.Cycle, error) { return cyclefile.Open(arg) }

// KeyRequest selects the inputs of a reference key.
type KeyRequest struct {
	Participating []solidarity.MemberState // nil: the Part IV states
	Population    string                   // dataset ref; "" for the default
	GDP           string
}

// Key computes the Art. 66 reference key and returns it with the datasets it used.
func (c *Catalog) Key(req KeyRequest) (*key.Key, *solidarity.Dataset, *solidarity.Dataset, error) {
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

// Pool computes the pool of a cycle and renders it.
func (c *Catalog) Pool(req PoolRequest) (*report.Pool, *pool.Result, error) {
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
		return nil, nil, err
	}
	k, pop, gdp, err := c.Key(KeyRequest{Participating: cy.Participating, Population: cy.PopulationData, GDP: cy.GDPData})
	if err != nil {
		return nil, nil, solidarity.At(err, cy.File)
	}
	r, err := pool.Compute(cy, k, method, req.AsOf)
	if err != nil {
		return nil, nil, err
	}
	return report.FromPool(r, pop, gdp, cyclefile.Warnings(cy)), r, nil
}
