// Package cyclefile reads and writes the TOML file that describes one Annual
// Solidarity Pool, and embeds the cycles shipped with solidarity.
//
// Reading is strict: unknown keys, unknown Member States, negative figures, a pledge of
// the wrong shape are errors naming the file, the line and the field, and nothing of a
// rejected file is used.
//
// cyclefile.go decodes a file (Parse, Open, the shipped cycles); validate.go turns the
// decoded file into a Cycle, one method per section; internal/tomlpos finds the line
// of a key for error messages.
package cyclefile

import (
	"embed"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"solidarity"
	"solidarity/internal/bound"
	"solidarity/internal/tomlpos"
)

//go:embed cycles/*.toml
var shipped embed.FS

// DefaultEURPerRelocation is the ratio of Art. 12(2) kept by recital 15:
// EUR 600 000 000 / 30 000 = EUR 20 000 per relocation.
const DefaultEURPerRelocation = solidarity.Cents(20_000 * 100)

// Minimums of the Commission proposal, Art. 12(2)(a) and (b) (tag V).
const (
	MinProposalRelocations = 30_000
	MinProposalEUR         = solidarity.Cents(600_000_000 * 100)
)

type fileFact struct {
	Source    string `toml:"source"`
	Certainty string `toml:"certainty"`
	Note      string `toml:"note"`
}

type fileNumbers struct {
	Relocations int64  `toml:"relocations"`
	EUR         amount `toml:"eur"`
	fileFact
}

type fileStatus struct {
	UnderPressure        bool `toml:"under_pressure"`
	AtRisk               bool `toml:"at_risk"`
	SignificantSituation bool `toml:"significant_situation"`
	Benefitting          bool `toml:"benefitting"`
	fileFact
}

type fileDeduction struct {
	State       string    `toml:"state"`
	Date        time.Time `toml:"date"`
	Full        bool      `toml:"full"`
	Fraction    string    `toml:"fraction"`
	Relocations int64     `toml:"relocations"`
	Act         string    `toml:"act"`
	Article     string    `toml:"article"`
	fileFact
}

type filePledge struct {
	State       string    `toml:"state"`
	Type        string    `toml:"type"`
	Relocations int64     `toml:"relocations"`
	EUR         amount    `toml:"eur"`
	Date        time.Time `toml:"date"`
	fileFact
}

type fileSAR struct {
	Share string `toml:"share"`
	fileFact
}

type file struct {
	Year             int                   `toml:"year"`
	Title            string                `toml:"title"`
	Illustrative     bool                  `toml:"illustrative"`
	Demonstration    bool                  `toml:"demonstration"`
	Note             string                `toml:"note"`
	LegalAct         string                `toml:"legal_act"`
	Adopted          time.Time             `toml:"adopted"`
	PoolStart        time.Time             `toml:"pool_start"`
	Deadline         time.Time             `toml:"deadline"`
	EURPerRelocation *int64                `toml:"eur_per_relocation"`
	Participating    []string              `toml:"participating"`
	Population       string                `toml:"population"`
	GDP              string                `toml:"gdp"`
	Method           string                `toml:"method"`
	Proposal         fileNumbers           `toml:"proposal"`
	Reference        fileNumbers           `toml:"reference"`
	SAR              *fileSAR              `toml:"sar"`
	Status           map[string]fileStatus `toml:"status"`
	Deduction        []fileDeduction       `toml:"deduction"`
	Pledge           []filePledge          `toml:"pledge"`
}

// amount is a euro amount written as a TOML integer (whole euros) or a string with at
// most two decimals ("9260000.50"). Floats are refused: money is never binary floating
// point.
type amount struct {
	cents solidarity.Cents
	set   bool
}

func (a *amount) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case int64:
		if x > int64(solidarity.MaxCents)/100 || x < -int64(solidarity.MaxCents)/100 {
			return fmt.Errorf("amount out of range (at most EUR %d)", int64(solidarity.MaxCents)/100)
		}
		a.cents, a.set = solidarity.Cents(x*100), true
		return nil
	case string:
		c, err := ParseEUR(x)
		if err != nil {
			return err
		}
		a.cents, a.set = c, true
		return nil
	}
	return fmt.Errorf("euro amounts are whole euros (an integer) or a decimal string, not %T", v)
}

// ParseEUR parses "1234", "1234.5", "1_234.56" or "1,234.56" into cents.
func ParseEUR(s string) (solidarity.Cents, error) {
	t := strings.NewReplacer("_", "", ",", "", " ", "").Replace(strings.TrimSpace(s))
	if t == "" || strings.ContainsAny(t, "eE/") {
		return 0, fmt.Errorf("%q is not a euro amount", s)
	}
	r, err := bound.Rat("", t, false, bound.Numbers{})
	if err != nil {
		return 0, fmt.Errorf("not a euro amount: %s", solidarity.ErrorMessage(err))
	}
	r.Mul(r, big.NewRat(100, 1))
	if !r.IsInt() {
		return 0, fmt.Errorf("%q has more than two decimals", s)
	}
	if !r.Num().IsInt64() || r.Num().Int64() > int64(solidarity.MaxCents) || r.Num().Int64() < -int64(solidarity.MaxCents) {
		return 0, fmt.Errorf("%q is out of range (at most EUR %d)", s, int64(solidarity.MaxCents)/100)
	}
	return solidarity.Cents(r.Num().Int64()), nil
}

// parseShare parses "0.42", "42%" or "21/50" into an exact rational in [0, 1].
func parseShare(s string) (*big.Rat, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	t = strings.TrimSuffix(t, "%")
	r, err := bound.Rat("", strings.TrimSpace(t), !pct, bound.Numbers{})
	if err != nil {
		return nil, fmt.Errorf("not a number, a percentage or a fraction: %s", solidarity.ErrorMessage(err))
	}
	if pct {
		r.Quo(r, big.NewRat(100, 1))
	}
	if r.Sign() < 0 || r.Cmp(big.NewRat(1, 1)) > 0 {
		return nil, fmt.Errorf("%q is not between 0 and 1 (0 %% and 100 %%)", s)
	}
	return r, nil
}

// Shipped returns the years of the cycles embedded in the binary, ascending.
func Shipped() []int {
	entries, _ := fs.ReadDir(shipped, "cycles")
	var years []int
	for _, e := range entries {
		if y, err := strconv.Atoi(strings.TrimSuffix(e.Name(), ".toml")); err == nil {
			years = append(years, y)
		}
	}
	slices.Sort(years)
	return years
}

// ShippedSource returns the TOML text of a shipped cycle.
func ShippedSource(year int) ([]byte, error) {
	b, err := shipped.ReadFile(fmt.Sprintf("cycles/%d.toml", year))
	if err != nil {
		return nil, &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "cycle",
			Message: fmt.Sprintf("no shipped cycle for %d (shipped: %v)", year, Shipped())}
	}
	return b, nil
}

// Open resolves a --cycle argument: a year of a shipped cycle, or a file path.
func Open(arg string) (*solidarity.Cycle, error) {
	if y, err := strconv.Atoi(arg); err == nil && !strings.ContainsAny(arg, "./") {
		src, err := ShippedSource(y)
		if err != nil {
			return nil, err
		}
		return Parse(fmt.Sprintf("cycles/%d.toml", y), src)
	}
	src, err := readFile(arg)
	if err != nil {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: arg, Message: "cannot read cycle file: " + strings.TrimPrefix(err.Error(), "open "+arg+": ")}
	}
	return Parse(filepath.Base(arg), src)
}

// readFile reads at most one byte more than a cycle file may have, so that a huge file
// (or /dev/zero) is refused by Parse's size bound instead of being read whole.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, int64(bound.Default.Bytes)+1))
}

// MaxDeductionsPerState bounds the deductions of one state in one cycle file. A
// Council decision under Art. 61(4) or 62 relieves a state once or twice a cycle; the
// bound exists because the pool adds the deducted fractions exactly, and the cost of
// that sum grows with the square of their number (1 600 deductions with distinct
// denominators took 2.8 s and 37 MB for a 129 KB request, 270 take 60 ms).
const MaxDeductionsPerState = 10

// limits bound a cycle file before it is decoded. A real one holds a few hundred values
// (27 states' statuses, pledges and deductions); the decoder spends about 1.6 KB per
// [[table]] and 0.1 KB per array element, so 10 000 values keep any file of up to 1 MiB
// within issue 12's budget of 64 MiB (internal/bound's budget test measures it).
var limits = bound.Limits{Values: 10_000}

// Parse decodes and validates one cycle file. name is used in error messages.
//
// Before decoding, src is checked against bound.Default (size, nesting depth, values,
// string length): the TOML decoder's cost grows with the square of the nesting depth,
// and a cycle file reaches a request body (POST /api/v1/pool).
func Parse(name string, src []byte) (*solidarity.Cycle, error) {
	if err := bound.TOML(name, src, limits); err != nil {
		return nil, err
	}
	var f file
	loc, err := tomlpos.Decode(name, src, &f, "docs/cycle-file.md")
	if err != nil {
		return nil, err
	}
	v := validator{name: name, loc: loc}
	c := v.cycle(&f)
	if v.err != nil {
		return nil, v.err
	}
	c.File = name
	return c, nil
}

// Warnings are facts about a valid cycle that a reader should see: a Commission
// proposal below the legal minimum, a reference EUR that breaks the ratio.
func Warnings(c *solidarity.Cycle) []string {
	var w []string
	if c.Proposal.Relocations > 0 && (c.Proposal.Relocations < MinProposalRelocations || c.Proposal.EUR < MinProposalEUR) {
		w = append(w, fmt.Sprintf("The Commission proposal (%d relocations, %s) is below the minimum of Art. 12(2) (30 000 relocations, EUR 600 million).",
			c.Proposal.Relocations, c.Proposal.EUR))
	}
	for _, d := range c.Deductions {
		if c.Statuses[d.State].Benefitting {
			w = append(w, fmt.Sprintf("%s has a deduction but is a benefitting state: Art. 61(1) allows deductions to states that have not used the pool.", d.State))
		}
	}
	for _, n := range []struct {
		what string
		x    solidarity.Numbers
	}{{"proposal", c.Proposal}, {"reference", c.Reference}} {
		if n.x.Relocations > 0 && n.x.EUR > 0 && solidarity.Cents(n.x.Relocations)*c.EURPerRelocation != n.x.EUR {
			w = append(w, fmt.Sprintf("The %s numbers (%d relocations, %s) do not keep the ratio of %s per relocation (recital 15).",
				n.what, n.x.Relocations, n.x.EUR, c.EURPerRelocation))
		}
	}
	return w
}
