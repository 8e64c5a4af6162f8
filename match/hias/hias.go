// Package hias reads the HIAS FY2017 refugee resettlement data (329 cases, 21
// affiliates; Delacrétaz, Kominers & Teytelboym, "Matching Mechanisms for Refugee
// Resettlement") from a directory of its four CSV files and builds the two standard
// placement models from it: A (children, adults, seniors against the affiliates'
// actual intake) and B (persons against stated capacity). It is the engine's
// real-data benchmark and a worked example of compiling a placement problem.
package hias

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"solidarity/match"
)

// The files in a data directory.
const (
	SizeFile          = "FY17_size.csv"
	CapFile           = "FY17_cap.csv"
	CompatibilityFile = "FY17_Compatibility.csv"
	WeightFile        = "FY17_Employment_weight.csv"
)

// Case is one refugee case (a family).
type Case struct {
	ID                        string // the case number
	Children, Adults, Seniors int64
}

// Size is the number of persons in the case.
func (c Case) Size() int64 { return c.Children + c.Adults + c.Seniors }

// Affiliate is a local resettlement office.
type Affiliate struct {
	Name string // as in the capacity file
	// Stated is the stated capacity in persons (model B); Children, Adults and
	// Seniors the numbers actually resettled there in FY2017 (model A).
	Stated, Children, Adults, Seniors int64
}

// Data is the instance: cases and affiliates in file order, and for each pair
// whether the case may go there and its employment weight.
type Data struct {
	Cases      []Case
	Affiliates []Affiliate
	// compatible[c][a] is true when the compatibility file says 1 and the weight file
	// has a weight; weight[c][a] is that weight.
	compatible [][]bool
	weight     [][]float64
}

// CaseID is the case number of case i.
func (d *Data) CaseID(i int) string { return d.Cases[i].ID }

// AffiliateName is the name of affiliate j, as in the capacity file.
func (d *Data) AffiliateName(j int) string { return d.Affiliates[j].Name }

// Weight is case i's employment weight at affiliate j and whether the pair is
// assignable (compatible with a known weight).
func (d *Data) Weight(i, j int) (float64, bool) {
	return d.weight[i][j], d.compatible[i][j]
}

// key is how affiliate names are matched between files: trimmed, case-insensitive,
// with the capacity file's name for the New York office mapped to the matrices'.
func key(name string) string {
	k := strings.ToUpper(strings.TrimSpace(name))
	if k == "NY-HIAS NEW YORK" {
		return "NY-NEW YORK CITY"
	}
	return k
}

// table is a CSV file read whole, with positions for errors.
type table struct {
	file   string
	header []string
	rows   [][]string
	lines  []int
}

func readTable(dir, name string) (*table, error) {
	path := filepath.Join(dir, name)
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("hias: %w", err)
	}
	defer fh.Close()
	r := csv.NewReader(fh)
	r.FieldsPerRecord = -1
	t := &table{file: name}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("hias: %s: %w", name, err)
		}
		line, _ := r.FieldPos(0)
		if t.header == nil {
			t.header = rec
			continue
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if len(rec) != len(t.header) {
			return nil, fmt.Errorf("hias: %s line %d: %d fields, the header has %d", name, line, len(rec), len(t.header))
		}
		t.rows = append(t.rows, rec)
		t.lines = append(t.lines, line)
	}
	if t.header == nil {
		return nil, fmt.Errorf("hias: %s: empty file", name)
	}
	return t, nil
}

func (t *table) errorf(i, field int, format string, args ...any) error {
	return fmt.Errorf("hias: %s line %d field %d (%s): %s", t.file, t.lines[i], field+1,
		strings.TrimSpace(t.header[field]), fmt.Sprintf(format, args...))
}

func (t *table) count(i, field int) (int64, error) {
	s := strings.TrimSpace(t.rows[i][field])
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, t.errorf(i, field, "want a whole number ≥ 0, have %q", s)
	}
	return v, nil
}

// Read reads the four files of the instance from dir.
func Read(dir string) (*Data, error) {
	rd := &reader{dir: dir, d: &Data{}}
	if err := rd.cases(); err != nil {
		return nil, err
	}
	if err := rd.affiliates(); err != nil {
		return nil, err
	}
	d := rd.d
	nC, nA := len(d.Cases), len(d.Affiliates)
	d.compatible = make([][]bool, nC)
	d.weight = make([][]float64, nC)
	compat := make([][]bool, nC)
	for i := range nC {
		d.compatible[i] = make([]bool, nA)
		d.weight[i] = make([]float64, nA)
		compat[i] = make([]bool, nA)
		for j := range nA {
			d.weight[i][j] = math.NaN()
		}
	}
	err := rd.matrix(CompatibilityFile, func(t *table, r, f, c, a int, s string) error {
		switch s {
		case "1":
			compat[c][a] = true
		case "0":
		default:
			return t.errorf(r, f, "want 1, 0 or NA, have %q", s)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = rd.matrix(WeightFile, func(t *table, r, f, c, a int, s string) error {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return t.errorf(r, f, "want a number or NA, have %q", s)
		}
		d.weight[c][a] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	for c := range nC {
		for a := range nA {
			d.compatible[c][a] = compat[c][a] && !math.IsNaN(d.weight[c][a])
		}
	}
	return d, nil
}

// reader is the state of a Read: the data so far and the indexes of the case
// numbers and of the affiliates' names (by key).
type reader struct {
	dir                 string
	d                   *Data
	caseIndex, affIndex map[string]int
}

// cases reads the case sizes (SizeFile).
func (rd *reader) cases() error {
	d, dir := rd.d, rd.dir
	sizes, err := readTable(dir, SizeFile)
	if err != nil {
		return err
	}
	if len(sizes.header) != 4 {
		return fmt.Errorf("hias: %s: header has %d fields, want 4 (case, children, adults, seniors)", SizeFile, len(sizes.header))
	}
	rd.caseIndex = map[string]int{}
	for i, row := range sizes.rows {
		c := Case{ID: strings.TrimSpace(row[0])}
		if c.ID == "" {
			return sizes.errorf(i, 0, "empty case number")
		}
		if _, dup := rd.caseIndex[c.ID]; dup {
			return sizes.errorf(i, 0, "case %s listed twice", c.ID)
		}
		for f, dst := range []*int64{&c.Children, &c.Adults, &c.Seniors} {
			if *dst, err = sizes.count(i, f+1); err != nil {
				return err
			}
		}
		rd.caseIndex[c.ID] = i
		d.Cases = append(d.Cases, c)
	}
	return nil
}

// affiliates reads the affiliates' capacities (CapFile).
func (rd *reader) affiliates() error {
	d, dir := rd.d, rd.dir
	caps, err := readTable(dir, CapFile)
	if err != nil {
		return err
	}
	if len(caps.header) != 5 {
		return fmt.Errorf("hias: %s: header has %d fields, want 5 (affiliate, stated capacity, children, adults, seniors)", CapFile, len(caps.header))
	}
	rd.affIndex = map[string]int{}
	for i, row := range caps.rows {
		a := Affiliate{Name: strings.TrimSpace(row[0])}
		k := key(a.Name)
		if k == "" {
			return caps.errorf(i, 0, "empty affiliate name")
		}
		if _, dup := rd.affIndex[k]; dup {
			return caps.errorf(i, 0, "affiliate %q listed twice", a.Name)
		}
		for f, dst := range []*int64{&a.Stated, &a.Children, &a.Adults, &a.Seniors} {
			if *dst, err = caps.count(i, f+1); err != nil {
				return err
			}
		}
		rd.affIndex[k] = i
		d.Affiliates = append(d.Affiliates, a)
	}
	return nil
}

// matrix reads a case × affiliate file, calling cell for each known value.
func (rd *reader) matrix(name string, cell func(t *table, r, field, c, a int, s string) error) error {
	t, err := readTable(rd.dir, name)
	if err != nil {
		return err
	}
	col := make([]int, len(t.header)) // header column → affiliate
	nC, nA := len(rd.d.Cases), len(rd.d.Affiliates)
	seen := make([]bool, nA)
	for f := 1; f < len(t.header); f++ {
		a, ok := rd.affIndex[key(t.header[f])]
		if !ok {
			return fmt.Errorf("hias: %s header field %d: affiliate %q is not in %s", name, f+1, strings.TrimSpace(t.header[f]), CapFile)
		}
		if seen[a] {
			return fmt.Errorf("hias: %s header field %d: affiliate %q appears twice", name, f+1, strings.TrimSpace(t.header[f]))
		}
		seen[a] = true
		col[f] = a
	}
	for a, ok := range seen {
		if !ok {
			return fmt.Errorf("hias: %s: no column for affiliate %q", name, rd.d.Affiliates[a].Name)
		}
	}
	seenCase := make([]bool, nC)
	for r, row := range t.rows {
		id := strings.TrimSpace(row[0])
		c, ok := rd.caseIndex[id]
		if !ok {
			return t.errorf(r, 0, "case %q is not in %s", id, SizeFile)
		}
		if seenCase[c] {
			return t.errorf(r, 0, "case %s listed twice", id)
		}
		seenCase[c] = true
		for f := 1; f < len(row); f++ {
			s := strings.TrimSpace(row[f])
			if strings.EqualFold(s, "NA") {
				continue
			}
			if err := cell(t, r, f, c, col[f], s); err != nil {
				return err
			}
		}
	}
	for c, ok := range seenCase {
		if !ok {
			return fmt.Errorf("hias: %s: no row for case %s", name, rd.d.Cases[c].ID)
		}
	}
	return nil
}

// Model builds placement model "A" (three dimensions: children, adults, seniors,
// capacities the affiliates' actual FY2017 intake) or "B" (one dimension, persons,
// capacity the stated capacity). Families are the cases in file order, places the
// affiliates in capacity-file order; no case has to be placed.
func (d *Data) Model(which string) (*match.Model, error) {
	var dims int
	switch which {
	case "A":
		dims = 3
	case "B":
		dims = 1
	default:
		return nil, fmt.Errorf("hias: no model %q (want A or B)", which)
	}
	m := &match.Model{Dims: dims}
	for _, a := range d.Affiliates {
		cp := []int64{a.Stated}
		if dims == 3 {
			cp = []int64{a.Children, a.Adults, a.Seniors}
		}
		m.Places = append(m.Places, match.Place{Cap: cp})
	}
	for c, cs := range d.Cases {
		need := []int64{cs.Size()}
		if dims == 3 {
			need = []int64{cs.Children, cs.Adults, cs.Seniors}
		}
		fam := match.Family{Need: need}
		for a := range d.Affiliates {
			if d.compatible[c][a] {
				fam.Arcs = append(fam.Arcs, match.Arc{Place: a, Score: d.weight[c][a]})
			}
		}
		m.Families = append(m.Families, fam)
	}
	return m, nil
}

// Dimensions names model which's dimensions, for reports.
func Dimensions(which string) []string {
	if which == "A" {
		return []string{"children", "adults", "seniors"}
	}
	return []string{"persons"}
}
