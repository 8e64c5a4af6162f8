package solidarity

import (
	"math/big"
)

// Indicator names what a Dataset measures.
type Indicator string

const (
	// Population on 1 January (Eurostat demo_pjan / demo_gind JAN), persons.
	Population Indicator = "population"
	// GDP at current market prices (Eurostat nama_10_gdp, na_item B1GQ, unit CP_MEUR),
	// million euro.
	GDP Indicator = "gdp"
)

// Unit returns the unit in which values of i are expressed.
func (i Indicator) Unit() string {
	switch i {
	case Population:
		return "persons"
	case GDP:
		return "million EUR"
	}
	return ""
}

// Observation is one figure for one Member State with its provenance. Value is nil
// when the source has no figure: a missing figure is never replaced by an invented one.
type Observation struct {
	State   MemberState
	Value   *big.Rat // exact; nil when missing
	Period  string   // reference period: "2025-01-01" or "2024"
	Flag    string   // Eurostat observation flag (p provisional, e estimated, b break) or ""
	Vintage string   // which release the figure comes from
	Source  string   // where it was read
	Note    string   // caveats, e.g. "unverified", "converted at ECB 2024 mean rate"
}

// Dataset is one indicator for a set of Member States, as shipped or imported.
type Dataset struct {
	ID        string // short identifier, e.g. "population-2025-01-01"
	Indicator Indicator
	Title     string
	Vintage   string // release/update the whole file comes from, when uniform
	Source    string
	Caveat    string // shown on screen wherever the dataset is used; "" when none
	Rows      []Observation
}

// Get returns the observation for m, if the dataset has one.
func (d *Dataset) Get(m MemberState) (Observation, bool) {
	for _, o := range d.Rows {
		if o.State == m {
			return o, true
		}
	}
	return Observation{}, false
}

// Missing returns the states in want for which d has no usable figure.
func (d *Dataset) Missing(want []MemberState) []MemberState {
	var out []MemberState
	for _, m := range want {
		if o, ok := d.Get(m); !ok || o.Value == nil {
			out = append(out, m)
		}
	}
	return out
}
