// Package cyclefile reads and writes the TOML file that describes one Annual
// Solidarity Pool, and embeds the cycles shipped with solidarity.
//
// Reading is strict: unknown keys, unknown Member States, negative figures, a pledge of
// the wrong shape are errors naming the file, the line and the field, and nothing of a
// rejected file is used.
package cyclefile

import (
	"bytes"
	"embed"
	"errors"
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

	"github.com/BurntSushi/toml"

	"solidarity"
	"solidarity/apportion"
	"solidarity/internal/bound"
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
	loc := newLocator(src)
	md, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&f)
	if err != nil {
		e := &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: err.Error()}
		if pe, ok := errors.AsType[toml.ParseError](err); ok {
			e.Line, e.Message = pe.Position.Line, pe.Message
			if pe.LastKey != "" {
				e.Field = pe.LastKey
			}
		}
		return nil, e
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0]
		plain := k.String()
		n := 0
		for _, x := range md.Keys() {
			if slices.Equal(x, k) {
				break
			}
			if x.String() == plain {
				n++
			}
		}
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: name, Line: loc.nth(plain, n), Field: k.String(),
			Message: "unknown key (check its spelling against the cycle file reference in docs/cycle-file.md)"}
	}
	v := validator{name: name, loc: loc}
	c := v.cycle(&f)
	if v.err != nil {
		return nil, v.err
	}
	c.File = name
	return c, nil
}

// validator turns the decoded file into a Cycle, stopping at the first error.
type validator struct {
	name string
	loc  *locator
	err  error
}

func (v *validator) fail(path, field, article, format string, args ...any) {
	if v.err != nil {
		return
	}
	full := path
	if field != "" {
		full = join(path, field)
	}
	line := v.loc.line(full)
	if line == 0 {
		line = v.loc.line(path)
	}
	v.err = &solidarity.Error{Code: solidarity.EINVALID, File: v.name, Line: line, Field: full,
		Message: fmt.Sprintf(format, args...), Article: article}
}

func (v *validator) state(path, field, s string) solidarity.MemberState {
	m, ok := solidarity.ParseMemberState(s)
	if !ok {
		v.fail(path, field, "", "%q is not an EU Member State (use Eurostat codes, e.g. EL for Greece)", s)
	}
	return m
}

func (v *validator) fact(path string, f fileFact) solidarity.Fact {
	switch f.Certainty {
	case "", "V", "P", "R", "M", "S", "U":
	default:
		v.fail(path, "certainty", "", "certainty %q is not one of V, P, R, M, S, U", f.Certainty)
	}
	return solidarity.Fact{Source: f.Source, Certainty: solidarity.Certainty(f.Certainty), Note: f.Note}
}

func (v *validator) cycle(f *file) *solidarity.Cycle {
	c := &solidarity.Cycle{Year: f.Year, Title: f.Title, Illustrative: f.Illustrative, Demonstration: f.Demonstration, Note: f.Note,
		LegalAct: f.LegalAct, Adopted: f.Adopted, PoolStart: f.PoolStart, Deadline: f.Deadline,
		PopulationData: f.Population, GDPData: f.GDP, Method: f.Method,
		EURPerRelocation: DefaultEURPerRelocation, Statuses: map[solidarity.MemberState]solidarity.Status{}}
	switch {
	case f.Demonstration && !solidarity.IsDemoCycle(f.Year):
		v.fail("", "year", "", "a demonstration cycle is numbered %d to %d (got %d), apart from every pool year", solidarity.DemoCycleBase, solidarity.DemoCycleBase+999, f.Year)
	case f.Demonstration:
	case f.Year < 2024 || f.Year > 2200:
		v.fail("", "year", "Art. 57(1) AMMR", "year %d is not a pool year (2024 or later)", f.Year)
	}
	if c.Deadline.IsZero() && f.Year > 0 {
		// Art. 60(3): non-financial pledges are implemented before the end of the year.
		c.Deadline = time.Date(f.Year, 12, 31, 0, 0, 0, 0, time.UTC)
	}
	if f.EURPerRelocation != nil {
		if *f.EURPerRelocation <= 0 || *f.EURPerRelocation > 1_000_000_000 {
			v.fail("", "eur_per_relocation", "Art. 12(2) AMMR; recital 15 AMMR", "must be a positive number of euros up to 1 000 000 000")
		} else {
			c.EURPerRelocation = solidarity.EUR(*f.EURPerRelocation)
		}
	}
	if f.Method != "" {
		m, err := apportion.ParseMethod(f.Method)
		if err != nil {
			v.fail("", "method", "", "%s", solidarity.ErrorMessage(err))
		}
		c.Method = string(m)
	} else {
		c.Method = string(apportion.RoundUp)
	}
	if c.PopulationData == "" {
		c.PopulationData = "population-2025-01-01"
	}
	if c.GDPData == "" {
		c.GDPData = "gdp-2024"
	}
	if len(f.Participating) == 0 {
		c.Participating = solidarity.PartIV()
	} else {
		seen := map[solidarity.MemberState]bool{}
		for _, s := range f.Participating {
			m := v.state("", "participating", s)
			if seen[m] {
				v.fail("", "participating", "", "%s is listed twice", m)
			}
			seen[m] = true
		}
		// Protocol order, whatever order the file uses: results must not depend on it.
		for _, m := range solidarity.MemberStates() {
			if seen[m] {
				c.Participating = append(c.Participating, m)
			}
		}
	}
	c.Proposal = v.numbers("proposal", f.Proposal, "Art. 12(2) AMMR")
	c.Reference = v.numbers("reference", f.Reference, "Art. 57(1) AMMR")
	if c.Reference.Relocations <= 0 {
		v.fail("reference", "relocations", "Art. 57(1) AMMR", "the reference number of relocations is required and must be positive")
	}
	if !f.Reference.EUR.set {
		v.fail("reference", "eur", "Art. 57(1) AMMR", "the reference amount in euro is required (relocations × %s keeps the ratio of recital 15)", c.EURPerRelocation)
	}
	if f.SAR != nil {
		r, err := parseShare(f.SAR.Share)
		if err != nil {
			v.fail("sar", "share", "Art. 57(2) AMMR", "%v", err)
		}
		c.SARShare, c.SARFact = r, v.fact("sar", f.SAR.fileFact)
	}
	inSet := func(m solidarity.MemberState) bool { return slices.Contains(c.Participating, m) }
	codes := make([]string, 0, len(f.Status))
	for k := range f.Status {
		codes = append(codes, k)
	}
	slices.Sort(codes)
	seenStatus := map[solidarity.MemberState]string{}
	for _, code := range codes {
		s := f.Status[code]
		path := "status." + code
		m := v.state(path, "", code)
		if prev, dup := seenStatus[m]; dup && m != "" {
			v.fail(path, "", "", "%s has two status tables ([status.%s] and [status.%s])", m, prev, code)
		}
		seenStatus[m] = code
		if m != "" && !inSet(m) {
			v.fail(path, "", "", "%s has a status but is not in the participating set", m)
		}
		c.Statuses[m] = solidarity.Status{UnderPressure: s.UnderPressure, AtRisk: s.AtRisk,
			SignificantSituation: s.SignificantSituation, Benefitting: s.Benefitting, Fact: v.fact(path, s.fileFact)}
	}
	perState := map[solidarity.MemberState]int{}
	for i, d := range f.Deduction {
		path := fmt.Sprintf("deduction[%d]", i)
		m := v.state(path, "state", d.State)
		if perState[m]++; perState[m] > MaxDeductionsPerState {
			v.fail(path, "state", "Art. 61 AMMR; Art. 62 AMMR", "more than %d deductions for %s, the limit of one cycle", MaxDeductionsPerState, m)
		}
		if m != "" && !inSet(m) {
			v.fail(path, "state", "Art. 61 AMMR; Art. 62 AMMR", "deduction for %s, which is not in the participating set", m)
		}
		if d.Date.IsZero() {
			v.fail(path, "date", "Art. 61(4) AMMR", "a deduction needs the date of the decision")
		}
		if d.Act == "" {
			v.fail(path, "act", "Art. 61(4) AMMR", "a deduction needs the legal act that decided it")
		}
		ded := solidarity.Deduction{State: m, Date: d.Date, Full: d.Full, Act: d.Act, Article: d.Article,
			Relocations: d.Relocations, Fact: v.fact(path, d.fileFact)}
		kinds := 0
		if d.Full {
			kinds++
		}
		if d.Fraction != "" {
			kinds++
			r, err := parseShare(d.Fraction)
			switch {
			case err != nil:
				v.fail(path, "fraction", "Art. 61 AMMR; Art. 62 AMMR", "a partial deduction is a fraction in (0, 1]: %v", err)
			case r.Sign() == 0:
				v.fail(path, "fraction", "Art. 61 AMMR; Art. 62 AMMR", "a partial deduction is a fraction in (0, 1]: %q", d.Fraction)
			}
			ded.Fraction = r
		}
		if d.Relocations != 0 {
			kinds++
			if d.Relocations < 0 || d.Relocations > solidarity.MaxRelocations {
				v.fail(path, "relocations", "Art. 61 AMMR; Art. 62 AMMR", "a deduction is between 1 and %d relocations", solidarity.MaxRelocations)
			}
		}
		if kinds != 1 {
			v.fail(path, "full", "Art. 61 AMMR; Art. 62 AMMR", "a deduction is exactly one of full = true, fraction = \"…\" or relocations = N")
		}
		c.Deductions = append(c.Deductions, ded)
	}
	for i, p := range f.Pledge {
		path := fmt.Sprintf("pledge[%d]", i)
		m := v.state(path, "state", p.State)
		if m != "" && !inSet(m) {
			v.fail(path, "state", "Art. 57(1) AMMR", "pledge for %s, which is not in the participating set", m)
		}
		t := solidarity.PledgeType(p.Type)
		if !t.Valid() {
			v.fail(path, "type", "Art. 56(2) AMMR", "pledge type %q is not one of %v", p.Type, solidarity.PledgeTypes())
		}
		pl := solidarity.Pledge{State: m, Type: t, Relocations: p.Relocations, EUR: p.EUR.cents, Date: p.Date, Fact: v.fact(path, p.fileFact)}
		switch {
		case t == solidarity.NoPledge:
			if p.Relocations != 0 || p.EUR.set {
				v.fail(path, "type", "", "a pledge of type none carries no amount")
			}
		case t.InUnits():
			if p.EUR.set {
				v.fail(path, "eur", "Art. 56(2) AMMR", "a %s pledge is counted in relocations, not euros", t)
			}
			if p.Relocations <= 0 || p.Relocations > solidarity.MaxRelocations {
				v.fail(path, "relocations", "Art. 56(2) AMMR", "a %s pledge needs a number of relocations between 1 and %d", t, solidarity.MaxRelocations)
			}
		default:
			if p.Relocations != 0 {
				v.fail(path, "relocations", "Art. 56(2) AMMR", "a %s pledge is counted in euros, not relocations", t)
			}
			if !p.EUR.set || p.EUR.cents <= 0 {
				v.fail(path, "eur", "Art. 56(2) AMMR", "a %s pledge needs a positive amount in euros", t)
			}
		}
		c.Pledges = append(c.Pledges, pl)
	}
	// A state recorded as pledging nothing cannot also have pledged something, nor be
	// recorded so twice.
	some := map[solidarity.MemberState]bool{}
	for _, p := range c.Pledges {
		if p.Type != solidarity.NoPledge {
			some[p.State] = true
		}
	}
	none := map[solidarity.MemberState]bool{}
	for i, p := range c.Pledges {
		if p.Type != solidarity.NoPledge {
			continue
		}
		if some[p.State] || none[p.State] {
			v.fail(fmt.Sprintf("pledge[%d]", i), "type", "", "%s is recorded as pledging nothing, and also elsewhere in the file", p.State)
		}
		none[p.State] = true
	}
	return c
}

func (v *validator) numbers(path string, n fileNumbers, article string) solidarity.Numbers {
	if n.Relocations < 0 || n.Relocations > solidarity.MaxRelocations {
		v.fail(path, "relocations", article, "must be between 0 and %d", solidarity.MaxRelocations)
	}
	if n.EUR.cents < 0 {
		v.fail(path, "eur", article, "must not be negative")
	}
	return solidarity.Numbers{Relocations: n.Relocations, EUR: n.EUR.cents, Fact: v.fact(path, n.fileFact)}
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
