package cyclefile

import (
	"fmt"
	"math/big"
	"slices"
	"time"

	"solidarity"
	"solidarity/apportion"
	"solidarity/internal/tomlpos"
)

// validator turns the decoded file into a Cycle, stopping at the first error. cycle
// checks the file section by section, in the order a reader meets them (the year and
// the cycle's terms, the participating set, the figures, statuses, deductions,
// pledges), so that the first error reported is the first one in that order.
type validator struct {
	name string
	loc  *tomlpos.Locator
	err  error
}

func (v *validator) fail(path, field, article, format string, args ...any) {
	if v.err != nil {
		return
	}
	full := path
	if field != "" {
		full = tomlpos.Join(path, field)
	}
	line := v.loc.Line(full)
	if line == 0 {
		line = v.loc.Line(path)
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
	v.terms(c, f)
	c.Participating = v.participating(f.Participating)
	v.figures(c, f)
	inSet := func(m solidarity.MemberState) bool { return slices.Contains(c.Participating, m) }
	v.statuses(c, f.Status, inSet)
	perState := map[solidarity.MemberState]int{}
	for i, d := range f.Deduction {
		c.Deductions = append(c.Deductions, v.deduction(fmt.Sprintf("deduction[%d]", i), d, inSet, perState))
	}
	for i, p := range f.Pledge {
		c.Pledges = append(c.Pledges, v.pledge(fmt.Sprintf("pledge[%d]", i), p, inSet))
	}
	v.nothingPledged(c.Pledges)
	return c
}

// terms checks the year and fills in the terms a file may leave out: the deadline, the
// ratio of euros to relocations, the apportionment method and the datasets.
func (v *validator) terms(c *solidarity.Cycle, f *file) {
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
}

// participating checks the participating set (Part IV states when the file names none)
// and returns it in protocol order.
func (v *validator) participating(codes []string) []solidarity.MemberState {
	if len(codes) == 0 {
		return solidarity.PartIV()
	}
	seen := map[solidarity.MemberState]bool{}
	for _, s := range codes {
		m := v.state("", "participating", s)
		if seen[m] {
			v.fail("", "participating", "", "%s is listed twice", m)
		}
		seen[m] = true
	}
	// Protocol order, whatever order the file uses: results must not depend on it.
	var in []solidarity.MemberState
	for _, m := range solidarity.MemberStates() {
		if seen[m] {
			in = append(in, m)
		}
	}
	return in
}

// figures checks the proposal, the reference numbers (both required, Art. 57(1)) and
// the share of the Solidarity Pool kept aside (Art. 57(2)).
func (v *validator) figures(c *solidarity.Cycle, f *file) {
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

// statuses checks the [status.XX] tables, in the order of their codes: one per
// participating state.
func (v *validator) statuses(c *solidarity.Cycle, status map[string]fileStatus, inSet func(solidarity.MemberState) bool) {
	codes := make([]string, 0, len(status))
	for k := range status {
		codes = append(codes, k)
	}
	slices.Sort(codes)
	seen := map[solidarity.MemberState]string{}
	for _, code := range codes {
		s := status[code]
		path := "status." + code
		m := v.state(path, "", code)
		if prev, dup := seen[m]; dup && m != "" {
			v.fail(path, "", "", "%s has two status tables ([status.%s] and [status.%s])", m, prev, code)
		}
		seen[m] = code
		if m != "" && !inSet(m) {
			v.fail(path, "", "", "%s has a status but is not in the participating set", m)
		}
		c.Statuses[m] = solidarity.Status{UnderPressure: s.UnderPressure, AtRisk: s.AtRisk,
			SignificantSituation: s.SignificantSituation, Benefitting: s.Benefitting, Fact: v.fact(path, s.fileFact)}
	}
}

// deduction checks one [[deduction]] (Art. 61 and 62): a participating state, the date
// and act of the decision, and exactly one of full, fraction or relocations. perState
// counts the deductions of each state so far.
func (v *validator) deduction(path string, d fileDeduction, inSet func(solidarity.MemberState) bool, perState map[solidarity.MemberState]int) solidarity.Deduction {
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
		ded.Fraction = v.fraction(path, d.Fraction)
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
	return ded
}

// fraction checks the fraction of a partial deduction: in (0, 1].
func (v *validator) fraction(path, s string) *big.Rat {
	r, err := parseShare(s)
	switch {
	case err != nil:
		v.fail(path, "fraction", "Art. 61 AMMR; Art. 62 AMMR", "a partial deduction is a fraction in (0, 1]: %v", err)
	case r.Sign() == 0:
		v.fail(path, "fraction", "Art. 61 AMMR; Art. 62 AMMR", "a partial deduction is a fraction in (0, 1]: %q", s)
	}
	return r
}

// pledge checks one [[pledge]] (Art. 56(2)): a participating state, a known type, and
// the amount in the unit of its type (none carries no amount).
func (v *validator) pledge(path string, p filePledge, inSet func(solidarity.MemberState) bool) solidarity.Pledge {
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
	return pl
}

// nothingPledged checks that a state recorded as pledging nothing has not also pledged
// something, nor been recorded so twice.
func (v *validator) nothingPledged(pledges []solidarity.Pledge) {
	some := map[solidarity.MemberState]bool{}
	for _, p := range pledges {
		if p.Type != solidarity.NoPledge {
			some[p.State] = true
		}
	}
	none := map[solidarity.MemberState]bool{}
	for i, p := range pledges {
		if p.Type != solidarity.NoPledge {
			continue
		}
		if some[p.State] || none[p.State] {
			v.fail(fmt.Sprintf("pledge[%d]", i), "type", "", "%s is recorded as pledging nothing, and also elsewhere in the file", p.State)
		}
		none[p.State] = true
	}
}
