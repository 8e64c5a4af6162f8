// Package refdata holds the reference data shipped with solidarity for the reference
// key (AMMR Art. 66, Annex I): population and GDP of the Member States, each row with
// its vintage and source, and each dataset with the caveat the UI must show. It also
// loads, writes and imports such data, from our provenance CSV format or from any of
// Eurostat's own formats (through internal/eurostat).
package refdata

import (
	"embed"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"solidarity"
	"solidarity/internal/eurostat"
)

//go:embed data/*.csv data/README.md
var files embed.FS

// IDs of the built-in datasets.
const (
	PopulationDefault = "population-2025-01-01"     // Eurostat demo_gind JAN, exact, April 2026
	PopulationJuly    = "population-2025-07"        // Eurostat release of 11 July 2025, rounded
	GDPDefault        = "gdp-2024"                  // IMF WEO October 2025, one vintage for all 27
	GDPPartial        = "gdp-2024-official-partial" // official figures for 20 states, cross-check only
)

// builtin describes one shipped file; what the file cannot say about itself (title,
// caveat) is written here.
type builtin struct {
	id, file string
	period   string // for files without a period column
	title    string
	vintage  string
	source   string // when the rows' sources differ
	caveat   string
}

var builtins = []builtin{
	{
		id: PopulationDefault, file: "population-2025-01-01.csv",
		title:   "Population on 1 January 2025 (Eurostat demo_gind, as published around April 2026)",
		vintage: "Eurostat demo_gind JAN, as published around April 2026",
		caveat: "Population on 1 January 2025 from Eurostat demo_gind (JAN) as published around April 2026, " +
			"transcribed from a public data module rather than downloaded from Eurostat; 9 states " +
			"(BE, IE, EL, ES, FR, IT, CY, LV, RO) were revised after the July 2025 release.",
	},
	{
		id: PopulationJuly, file: "population-2025-01-01-release-2025-07.csv",
		title:   "Population on 1 January 2025 (Eurostat release of 11 July 2025, rounded to 100)",
		vintage: "Eurostat release of 11 July 2025",
		caveat: "Values are rounded to the nearest 100: Eurostat release of 11 July 2025, as listed on a " +
			"Wikipedia mirror, not exact Eurostat figures. This is the vintage closest to what the " +
			"Commission used for the 2026 pool.",
	},
	{
		id: GDPDefault, file: "gdp-2024.csv",
		title:   "GDP 2024 at current prices, million EUR (IMF World Economic Outlook, October 2025)",
		vintage: "IMF World Economic Outlook, October 2025",
		caveat: "GDP 2024 here is IMF World Economic Outlook October 2025 data, not a Eurostat nama_10_gdp " +
			"extract as Art. 66 provides. The 7 non-euro states (BG, CZ, DK, HU, PL, RO, SE) are converted " +
			"from national currency at the mean 2024 ECB euro reference rate. Import Eurostat's " +
			"nama_10_gdp (CP_MEUR, B1GQ) to replace it.",
	},
	{
		id: GDPPartial, file: "gdp-2024-official-partial.csv", period: "2024",
		title:   "GDP 2024, official national or Eurostat figures (partial, cross-check only)",
		vintage: "mixed vintages",
		source:  "national statistical offices, Eurostat and OECD, as quoted by press and third parties (see each row)",
		caveat: "Cross-check only, not for the reference key: figures are missing for 7 states " +
			"(BE, DK, EE, IE, LV, LU, FI), the rest are of mixed vintages, several unverified or " +
			"secondary, and the EL figure is probably at constant prices.",
	},
}

// partialMarkers turn the warnings written into the partial file's vintage text into
// short notes, so that a table can show them next to the figure.
var partialMarkers = []struct{ marker, note string }{
	{"NOT current prices", "probably constant prices, not current prices"},
	{"UNVERIFIED", "unverified copy of Eurostat data"},
	{"SECONDARY", "secondary source, not official"},
	{"EARLY VINTAGE", "early vintage"},
}

var parsed = sync.OnceValue(func() []*solidarity.Dataset {
	out := make([]*solidarity.Dataset, len(builtins))
	for i, b := range builtins {
		f, err := files.Open("data/" + b.file)
		if err != nil {
			panic(fmt.Sprintf("refdata: embedded %s: %v", b.file, err))
		}
		d, err := ParseCSV(b.file, f, eurostat.Options{Period: b.period})
		f.Close()
		if err != nil {
			// The files are fixed at build time and tested: this is a broken build.
			panic(fmt.Sprintf("refdata: embedded %s: %v", b.file, err))
		}
		d.ID, d.Title, d.Caveat, d.Vintage = b.id, b.title, b.caveat, b.vintage
		if b.source != "" {
			d.Source = b.source
		}
		if b.id == GDPPartial {
			for j, o := range d.Rows {
				if o.Value == nil {
					continue
				}
				var notes []string
				for _, m := range partialMarkers {
					if strings.Contains(o.Vintage, m.marker) {
						notes = append(notes, m.note)
					}
				}
				d.Rows[j].Note = strings.Join(notes, "; ")
			}
		}
		out[i] = d
	}
	return out
})

// Builtin returns the shipped datasets: population-2025-01-01 (the default population),
// population-2025-07, gdp-2024 (the default GDP) and gdp-2024-official-partial. Each
// call returns fresh copies, which the caller may change.
func Builtin() []*solidarity.Dataset {
	out := make([]*solidarity.Dataset, 0, len(builtins))
	for _, d := range parsed() {
		out = append(out, clone(d))
	}
	return out
}

// Lookup returns a copy of the built-in dataset with the given ID, and whether there
// is one.
func Lookup(id string) (*solidarity.Dataset, bool) {
	for _, d := range parsed() {
		if d.ID == id {
			return clone(d), true
		}
	}
	return nil, false
}

// IDs returns the IDs of the built-in datasets, defaults first within each indicator.
func IDs() []string {
	ids := make([]string, len(builtins))
	for i, b := range builtins {
		ids[i] = b.id
	}
	return ids
}

// DefaultPopulation returns a copy of the default population dataset,
// population-2025-01-01.
func DefaultPopulation() *solidarity.Dataset { return mustLookup(PopulationDefault) }

// DefaultGDP returns a copy of the default GDP dataset, gdp-2024. Its Caveat must be
// shown: it is IMF data, not a Eurostat extract.
func DefaultGDP() *solidarity.Dataset { return mustLookup(GDPDefault) }

func mustLookup(id string) *solidarity.Dataset {
	d, ok := Lookup(id)
	if !ok {
		panic("refdata: no built-in dataset " + id)
	}
	return d
}

// README returns the notes shipped with the data: what each file is and how close the
// defaults come to the official 2026 pool.
func README() string {
	b, err := files.ReadFile("data/README.md")
	if err != nil {
		panic(err)
	}
	return string(b)
}

func clone(d *solidarity.Dataset) *solidarity.Dataset {
	c := *d
	c.Rows = make([]solidarity.Observation, len(d.Rows))
	for i, o := range d.Rows {
		if o.Value != nil {
			o.Value = new(big.Rat).Set(o.Value)
		}
		c.Rows[i] = o
	}
	return &c
}
