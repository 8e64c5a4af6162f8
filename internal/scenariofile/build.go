package scenariofile

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"solidarity"
	"solidarity/apportion"
	"solidarity/internal/cyclefile"
	"solidarity/internal/refdata"
	"solidarity/internal/tomlpos"
	"solidarity/key"
	"solidarity/simulation"
)

// fileScenario is one decoded file. Every field is optional in a file with a base:
// what it leaves out, the base decides.
type fileScenario struct {
	Base          string     `toml:"base"`
	Name          string     `toml:"name"`
	Title         string     `toml:"title"`
	Note          string     `toml:"note"`
	Illustrative  *bool      `toml:"illustrative"`
	Start         *time.Time `toml:"start"`
	Months        int        `toml:"months"`
	Rules         string     `toml:"rules"`
	Runs          *int64     `toml:"runs"`
	Seed          *int64     `toml:"seed"`
	Cycle         any        `toml:"cycle"`
	Population    string     `toml:"population"`
	GDP           string     `toml:"gdp"`
	Participating []string   `toml:"participating"`
	Benefitting   []string   `toml:"benefitting"`

	Parameters  fileParams            `toml:"parameters"`
	Choice      map[string]fileChoice `toml:"choice"`
	Operations  fileOperations        `toml:"operations"`
	Uncertainty fileUncertainty       `toml:"uncertainty"`
	Data        fileData              `toml:"data"`
	Arrival     []fileArrival         `toml:"arrival"`
	Commitments map[string]number     `toml:"commitments"`
	KeyPercent  map[string]number     `toml:"key_percent"`
}

type fileParams struct {
	Reference number `toml:"reference"`
	Proposal  number `toml:"proposal"`
	Price     number `toml:"price"`
	Receipt   number `toml:"receipt"`
	Trigger   number `toml:"trigger"`
	Method    string `toml:"method"`
}

type fileChoice struct {
	Form        string   `toml:"form"`
	Relocate    *float64 `toml:"relocate"`
	Pay         *float64 `toml:"pay"`
	Offset      *float64 `toml:"offset"`
	Alternative *float64 `toml:"alternative"`
	Source      string   `toml:"source"`
	Certainty   string   `toml:"certainty"`
	Note        string   `toml:"note"`
}

type fileOperations struct {
	Recognition            map[string]number `toml:"recognition"`
	BorderThreshold        number            `toml:"border_threshold"`
	BorderCapacity         map[string]number `toml:"border_capacity"`
	ReturnRate             number            `toml:"return_rate"`
	DublinTransferRatio    number            `toml:"dublin_transfer_ratio"`
	OffsetsAtTransferRatio *bool             `toml:"offsets_at_transfer_ratio"`
	LeadMonths             number            `toml:"lead_months"`
	DeliveryRate           number            `toml:"delivery_rate"`
	EligibleShare          number            `toml:"eligible_share"`
	ArrivalsScale          number            `toml:"arrivals_scale"`
	PressureThreshold      number            `toml:"pressure_threshold"`
}

type fileUncertainty struct {
	ArrivalsDispersion number `toml:"arrivals_dispersion"`
	DeliveryDispersion number `toml:"delivery_dispersion"`
}

// fileData names the CSV files of a scenario (csv.go has their columns).
type fileData struct {
	Arrivals []string `toml:"arrivals"`
	// ArrivalsFrom is the month of the arrivals files that stands for the period's
	// first month (YYYY-MM): "2025's arrivals again in 2026". Empty: the same month.
	ArrivalsFrom string `toml:"arrivals_from"`
	// ArrivalsEurostat is a user's download of Eurostat's asylum applicants
	// (migr_asyappctzm monthly, migr_asyappctza annual), in any of its formats.
	ArrivalsEurostat string `toml:"arrivals_eurostat"`
	Commitments      string `toml:"commitments"`
	KeyPercent       string `toml:"key_percent"`
	Observed         string `toml:"observed"`
	Published        string `toml:"published"`
	Recognition      string `toml:"recognition"`
}

type fileArrival struct {
	Month       string  `toml:"month"`
	State       string  `toml:"state"`
	Nationality string  `toml:"nationality"`
	Mean        float64 `toml:"mean"`
	Estimated   bool    `toml:"estimated"`
	Source      string  `toml:"source"`
	Certainty   string  `toml:"certainty"`
}

// layer is one file of a scenario with what its errors need: its name, its key
// lines, and where its relative paths are read from.
type layer struct {
	file string
	f    *fileScenario
	loc  *tomlpos.Locator
	dir  fs.FS // nil: only shipped data
}

func (l *layer) errorf(field, format string, args ...any) error {
	return &solidarity.Error{Code: solidarity.EINVALID, File: l.file, Line: l.loc.Line(field), Field: field, Message: fmt.Sprintf(format, args...)}
}

// wrap gives an error from elsewhere (a cycle file, a dataset) this file's place.
func (l *layer) wrap(field string, err error) error {
	var e *solidarity.Error
	if errors.As(err, &e) && e.File != "" {
		return err
	}
	// Whatever went wrong elsewhere, this file is what is invalid.
	return &solidarity.Error{Code: solidarity.EINVALID, File: l.file, Line: l.loc.Line(field), Field: field, Message: solidarity.ErrorMessage(err)}
}

// draft is a scenario being built from its layers: ids are resolved last, once every
// layer has had its say.
type draft struct {
	s      *simulation.Scenario
	layers []*layer
	// cycle, population and gdp, with the layer that set them.
	cycle, population, gdp string
	cycleL, popL, gdpL     *layer
	participating          bool // set by a file, else derived
	arrivals               []pendingArrival
	arrivalsFrom           int // calendar month (year*12+month-1) of the period's first; 0 = its own
}

func newDraft(name string) *draft {
	return &draft{s: &simulation.Scenario{
		Name:          name,
		Choices:       map[simulation.Code]simulation.Choice{},
		DefaultChoice: simulation.Choice{Relocate: 1},
		Ops: simulation.Operations{
			Recognition:    map[string]simulation.Number{},
			BorderCapacity: map[simulation.Code]simulation.Number{},
		},
	}}
}

// apply lays one file over the draft: what the file names replaces the base's;
// tables keyed by state or nationality merge key by key.
func (d *draft) apply(l *layer) error {
	f, s := l.f, d.s
	if f.Name != "" {
		if !validName(f.Name) {
			return l.errorf("name", "a name of lower-case letters, digits and hyphens, up to 64")
		}
		s.Name = f.Name
	}
	if f.Title != "" {
		s.Title = f.Title
	}
	if f.Note != "" {
		s.Note = f.Note
	}
	if f.Illustrative != nil {
		s.Illustrative = *f.Illustrative
	}
	if f.Start != nil {
		t := *f.Start
		if t.Day() != 1 || t.Hour() != 0 || t.Minute() != 0 {
			return l.errorf("start", "the period starts on the first day of a month (a date like 2026-06-01)")
		}
		if t.Year() < 2000 || t.Year() > 2100 {
			return l.errorf("start", "year %d out of range 2000–2100", t.Year())
		}
		s.Start = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	if f.Months != 0 {
		if f.Months < 1 || f.Months > 120 {
			return l.errorf("months", "%d months; want 1 to 120", f.Months)
		}
		s.Months = f.Months
	}
	if f.Rules != "" {
		if _, err := simulation.Lookup(simulation.RuleSet(f.Rules)); err != nil {
			return l.wrap("rules", err)
		}
		s.Rules = simulation.RuleSet(f.Rules)
	}
	if f.Runs != nil {
		// 0 would read as "not set" (Scenario.Runs): the expected run alone is
		// asked for on the command line (--runs 0), not in a file.
		if *f.Runs < 1 || *f.Runs > simulation.MaxRuns {
			return l.errorf("runs", "%d runs; want 1 to %d (the expected run alone: --runs 0)", *f.Runs, simulation.MaxRuns)
		}
		s.Runs = int(*f.Runs)
	}
	if f.Seed != nil {
		if *f.Seed < 1 {
			return l.errorf("seed", "a seed from 1 to 2^63−1 (0 reads as not set)")
		}
		s.Seed = uint64(*f.Seed)
	}
	if err := d.ids(l); err != nil {
		return err
	}
	for _, step := range []func(*layer) error{d.states, d.parameters, d.choices, d.operations, d.data, d.inline} {
		if err := step(l); err != nil {
			return err
		}
	}
	return nil
}

// ids keeps the cycle and the datasets the file names, resolved in finish.
func (d *draft) ids(l *layer) error {
	f := l.f
	switch c := f.Cycle.(type) {
	case nil:
	case int64:
		d.cycle, d.cycleL = strconv.FormatInt(c, 10), l
	case string:
		if c == "" {
			return l.errorf("cycle", "an empty cycle")
		}
		d.cycle, d.cycleL = c, l
	default:
		return l.errorf("cycle", "a shipped cycle's year (2026) or a cycle file's path")
	}
	if f.Population != "" {
		d.population, d.popL = f.Population, l
	}
	if f.GDP != "" {
		d.gdp, d.gdpL = f.GDP, l
	}
	return nil
}

func (d *draft) states(l *layer) error {
	codes := func(field string, list []string) ([]simulation.Code, error) {
		var out []simulation.Code
		for _, c := range list {
			code := simulation.Code(strings.ToUpper(strings.TrimSpace(c)))
			if !simulation.ValidCode(code) {
				return nil, l.errorf(field, "unknown state %q (want a Eurostat code such as EL, or NO CH LI IS)", c)
			}
			if slices.Contains(out, code) {
				return nil, l.errorf(field, "%s named twice", code)
			}
			out = append(out, code)
		}
		return out, nil
	}
	if l.f.Participating != nil {
		p, err := codes("participating", l.f.Participating)
		if err != nil {
			return err
		}
		d.s.Participating, d.participating = p, true
	}
	if l.f.Benefitting != nil {
		b, err := codes("benefitting", l.f.Benefitting)
		if err != nil {
			return err
		}
		d.s.Benefitting = b
	}
	return nil
}

// num turns a decoded number into a simulation.Number named by its field, or reports
// its shape error at its line. An unset number leaves *dst as it is.
func (l *layer) num(field string, n number, dst *simulation.Number) error {
	if !n.set {
		return nil
	}
	if n.err != "" {
		return l.errorf(field, "%s", n.err)
	}
	*dst = simulation.Number{Value: n.value, Known: known(n.fact), Fact: n.fact, Name: field}
	return nil
}

// numField is a number of the file and where it goes.
type numField struct {
	field string
	n     number
	dst   *simulation.Number
}

// nums sets every number of fields the file sets.
func (l *layer) nums(fields []numField) error {
	for _, x := range fields {
		if err := l.num(x.field, x.n, x.dst); err != nil {
			return err
		}
	}
	return nil
}

func (d *draft) parameters(l *layer) error {
	p, dst := l.f.Parameters, &d.s.Params
	if err := l.nums([]numField{
		{"parameters.reference", p.Reference, &dst.Reference},
		{"parameters.proposal", p.Proposal, &dst.Proposal},
		{"parameters.price", p.Price, &dst.Price},
		{"parameters.receipt", p.Receipt, &dst.Receipt},
		{"parameters.trigger", p.Trigger, &dst.Trigger},
	}); err != nil {
		return err
	}
	if p.Method != "" {
		m, err := apportion.ParseMethod(p.Method)
		if err != nil {
			return l.wrap("parameters.method", err)
		}
		dst.Method = m
	}
	return nil
}

// forms are the shorthand of a choice: form = "pay" is pay = 1.
var forms = []string{"relocate", "pay", "offset", "alternative", "refuse"}

func (d *draft) choices(l *layer) error {
	for _, k := range slices.Sorted(maps.Keys(l.f.Choice)) { // sorted: the same file, the same first error
		fc := l.f.Choice[k]
		field := "choice." + k
		ch := simulation.Choice{Fact: solidarity.Fact{Source: fc.Source, Certainty: solidarity.Certainty(fc.Certainty), Note: fc.Note}}
		if msg := checkFact(ch.Fact); msg != "" {
			return l.errorf(field+".certainty", "%s", msg)
		}
		ch.Known = known(ch.Fact)
		fracs := []*float64{fc.Relocate, fc.Pay, fc.Offset, fc.Alternative}
		dst := []*float64{&ch.Relocate, &ch.Pay, &ch.Offset, &ch.Alternative}
		anyFrac := false
		for i, f := range fracs {
			if f != nil {
				if math.IsNaN(*f) || *f < 0 || *f > 1 {
					return l.errorf(field+"."+forms[i], "a fraction of %v; want 0 to 1", *f)
				}
				*dst[i], anyFrac = *f, true
			}
		}
		switch {
		case fc.Form != "" && anyFrac:
			return l.errorf(field+".form", "either a form or fractions, not both")
		case fc.Form != "":
			i := slices.Index(forms, fc.Form)
			if i < 0 {
				return l.errorf(field+".form", "form %q; want one of %s", fc.Form, strings.Join(forms, ", "))
			}
			if i < 4 {
				*dst[i] = 1
			}
		case !anyFrac:
			return l.errorf(field, "a choice needs a form or fractions (relocate, pay, offset, alternative)")
		}
		if ch.Relocate+ch.Pay+ch.Offset+ch.Alternative > 1+1e-9 {
			return l.errorf(field, "the fractions add up to more than 1")
		}
		if k == "default" {
			d.s.DefaultChoice = ch
			continue
		}
		code := simulation.Code(k)
		if !simulation.ValidCode(code) {
			return l.errorf(field, "unknown state %q (want a Eurostat code such as HU, or default)", k)
		}
		d.s.Choices[code] = ch
	}
	return nil
}

func (d *draft) operations(l *layer) error {
	o, dst := l.f.Operations, &d.s.Ops
	if err := l.nums([]numField{
		{"operations.border_threshold", o.BorderThreshold, &dst.BorderThreshold},
		{"operations.return_rate", o.ReturnRate, &dst.ReturnRate},
		{"operations.dublin_transfer_ratio", o.DublinTransferRatio, &dst.DublinTransferRatio},
		{"operations.lead_months", o.LeadMonths, &dst.LeadMonths},
		{"operations.delivery_rate", o.DeliveryRate, &dst.DeliveryRate},
		{"operations.eligible_share", o.EligibleShare, &dst.EligibleShare},
		{"operations.arrivals_scale", o.ArrivalsScale, &dst.ArrivalsScale},
		{"operations.pressure_threshold", o.PressureThreshold, &dst.PressureThreshold},
		{"uncertainty.arrivals_dispersion", l.f.Uncertainty.ArrivalsDispersion, &d.s.Uncertainty.ArrivalsDispersion},
		{"uncertainty.delivery_dispersion", l.f.Uncertainty.DeliveryDispersion, &d.s.Uncertainty.DeliveryDispersion},
	}); err != nil {
		return err
	}
	if o.OffsetsAtTransferRatio != nil {
		dst.OffsetsAtTransferRatio = *o.OffsetsAtTransferRatio
	}
	for _, nat := range slices.Sorted(maps.Keys(o.Recognition)) {
		n := o.Recognition[nat]
		var v simulation.Number
		if err := l.num("operations.recognition."+nat, n, &v); err != nil {
			return err
		}
		dst.Recognition[nat] = v
	}
	for _, st := range slices.Sorted(maps.Keys(o.BorderCapacity)) {
		n := o.BorderCapacity[st]
		code := simulation.Code(st)
		if !simulation.ValidCode(code) {
			return l.errorf("operations.border_capacity."+st, "unknown state %q", st)
		}
		var v simulation.Number
		if err := l.num("operations.border_capacity."+st, n, &v); err != nil {
			return err
		}
		dst.BorderCapacity[code] = v
	}
	return nil
}

// inline adds the figures written in the file itself: arrival rows, commitments and
// key percentages by state. They override a data file's figure for the same key.
func (d *draft) inline(l *layer) error {
	for i, a := range l.f.Arrival {
		field := fmt.Sprintf("arrival[%d]", i)
		row, err := d.arrival(a.Month, a.State, a.Nationality, a.Mean, a.Estimated, solidarity.Fact{Source: a.Source, Certainty: solidarity.Certainty(a.Certainty)})
		if err != nil {
			return &solidarity.Error{Code: solidarity.EINVALID, File: l.file, Line: l.loc.Line(field), Field: field, Message: err.Error()}
		}
		d.arrivals = slices.DeleteFunc(d.arrivals, func(x pendingArrival) bool {
			return x.ym == row.ym && x.row.State == row.row.State && x.row.Nationality == row.row.Nationality
		})
		d.arrivals = append(d.arrivals, *row)
	}
	for _, t := range []struct {
		section string
		from    map[string]number
		dst     *map[simulation.Code]simulation.Number
	}{{"commitments", l.f.Commitments, &d.s.Commitments}, {"key_percent", l.f.KeyPercent, &d.s.KeyPercent}} {
		for _, st := range slices.Sorted(maps.Keys(t.from)) {
			n := t.from[st]
			field := t.section + "." + st
			code := simulation.Code(st)
			if !simulation.ValidCode(code) {
				return l.errorf(field, "unknown state %q", st)
			}
			var v simulation.Number
			if err := l.num(field, n, &v); err != nil {
				return err
			}
			if v.Value < 0 {
				return l.errorf(field, "a negative figure")
			}
			if *t.dst == nil {
				*t.dst = map[simulation.Code]simulation.Number{}
			}
			(*t.dst)[code] = v
		}
	}
	return nil
}

// finish resolves the cycle and the datasets, fills what the rule set implies, and
// prepares the scenario once, so that a file that parses also runs; an error found
// there is placed at the line of the layer that wrote the field.
func (d *draft) finish() (*simulation.Scenario, error) {
	s := d.s
	top := d.layers[len(d.layers)-1]
	if s.Start.IsZero() {
		return nil, top.errorf("start", "the period's first month is missing (start = 2026-06-01)")
	}
	if s.Months == 0 {
		return nil, top.errorf("months", "the number of months is missing")
	}
	if s.Rules == "" {
		return nil, top.errorf("rules", "the rule set is missing (ammr-2024, council-2015, dublin-iv-2016 or dublin-only)")
	}
	if s.Title == "" {
		s.Title = s.Name
	}
	// Arrivals outside the period are left out: the shipped data files cover
	// whole years, a scenario may take a part of them.
	s.Arrivals = s.Arrivals[:0]
	first := s.Start.Year()*12 + int(s.Start.Month()) - 1
	if d.arrivalsFrom != 0 {
		first = d.arrivalsFrom
	}
	for _, a := range d.arrivals {
		if m := a.ym - first; m >= 0 && m < s.Months {
			a.row.Month = m
			s.Arrivals = append(s.Arrivals, a.row)
		}
	}
	if len(d.arrivals) > 0 && len(s.Arrivals) == 0 {
		return nil, top.errorf("start", "none of the %d arrival rows falls in the period (%s, %d months): check start, months and data.arrivals_from", len(d.arrivals), s.Start.Format("2006-01"), s.Months)
	}
	if err := d.resolveCycle(); err != nil {
		return nil, err
	}
	if err := d.resolveKey(); err != nil {
		return nil, err
	}
	if !d.participating {
		s.Participating = d.defaultParticipating()
	}
	if _, err := simulation.Prepare(s); err != nil {
		return nil, d.place(err)
	}
	return s, nil
}

func (d *draft) resolveCycle() error {
	if d.cycle == "" {
		return nil
	}
	l := d.cycleL
	var c *solidarity.Cycle
	if y, err := strconv.Atoi(d.cycle); err == nil {
		src, err := cyclefile.ShippedSource(y)
		if err != nil {
			return l.wrap("cycle", err)
		}
		if c, err = cyclefile.Parse(fmt.Sprintf("cycles/%d.toml", y), src); err != nil {
			return err
		}
	} else {
		if l.dir == nil {
			return l.errorf("cycle", "here a cycle is a shipped cycle's year (%v): no file is read", cyclefile.Shipped())
		}
		src, err := readFS(l.dir, d.cycle, int64(8<<20))
		if err != nil {
			return l.wrap("cycle", err)
		}
		if c, err = cyclefile.Parse(d.cycle, src); err != nil {
			return err
		}
	}
	d.s.Cycle = c
	d.fromCycle(c)
	if d.population == "" {
		d.population, d.popL = c.PopulationData, l
	}
	if d.gdp == "" {
		d.gdp, d.gdpL = c.GDPData, l
	}
	if !d.participating && len(c.Participating) > 0 {
		d.s.Participating, d.participating = append([]simulation.Code(nil), c.Participating...), true
	}
	return nil
}

// pledgeForms turn a cycle's pledge into a choice (Art. 56(2)): a state that
// pledged one measure takes that form; "none" is a refusal.
var pledgeForms = map[solidarity.PledgeType]simulation.Choice{
	solidarity.RelocationApplicants:    {Relocate: 1},
	solidarity.RelocationBeneficiaries: {Relocate: 1},
	solidarity.Financial:               {Pay: 1},
	solidarity.Alternative:             {Alternative: 1},
	solidarity.Offset:                  {Offset: 1},
	solidarity.NoPledge:                {},
}

// fromCycle fills what the file leaves to its cycle: the benefitting states (Art.
// 58), the reference number (Art. 57(1)) and, for a state the file gives no choice,
// the form of its pledge.
func (d *draft) fromCycle(c *solidarity.Cycle) {
	s := d.s
	if s.Benefitting == nil {
		for _, st := range solidarity.MemberStates() {
			if c.Statuses[st].Benefitting {
				s.Benefitting = append(s.Benefitting, st)
			}
		}
	}
	if s.Params.Reference.Name == "" && c.Reference.Relocations > 0 {
		s.Params.Reference = simulation.Number{Value: float64(c.Reference.Relocations), Known: known(c.Reference.Fact),
			Fact: c.Reference.Fact, Name: "cycle.reference"}
	}
	for _, p := range c.Pledges {
		if _, set := s.Choices[p.State]; set {
			continue
		}
		ch, ok := pledgeForms[p.Type]
		if !ok {
			continue
		}
		ch.Fact, ch.Known = p.Fact, known(p.Fact)
		s.Choices[p.State] = ch
	}
}

// dataset resolves a dataset id (a shipped one) or, for a file read from a directory,
// a path relative to it.
func dataset(l *layer, field, id string) (*solidarity.Dataset, error) {
	if ds, ok := refdata.Lookup(id); ok {
		return ds, nil
	}
	if l.dir == nil {
		return nil, l.errorf(field, "no shipped dataset %q (shipped: %s); here no file is read", id, strings.Join(refdata.IDs(), ", "))
	}
	src, err := readFS(l.dir, id, int64(32<<20))
	if err != nil {
		return nil, l.errorf(field, "no shipped dataset %q (shipped: %s) and no file: %v", id, strings.Join(refdata.IDs(), ", "), err)
	}
	ds, err := refdata.Load(id, strings.NewReader(string(src)), eurostatOptions)
	if err != nil {
		return nil, l.wrap(field, err)
	}
	return ds, nil
}

// resolveKey computes the Art. 66 key over the EU participants when the file names
// (or its cycle brings) population and GDP, and the populations for per-capita
// measures. The rule sets without a key still use it for the cost of each rule set.
func (d *draft) resolveKey() error {
	s := d.s
	if d.population == "" || d.gdp == "" {
		if s.Rules == simulation.AMMR2024 || s.Rules == simulation.DublinIV2016 {
			top := d.layers[len(d.layers)-1]
			return top.errorf("population", "the %s rules need the reference key: name population and gdp datasets (shipped: %s) or a cycle", s.Rules, strings.Join(refdata.IDs(), ", "))
		}
		return nil
	}
	pop, err := dataset(d.popL, "population", d.population)
	if err != nil {
		return err
	}
	gdp, err := dataset(d.gdpL, "gdp", d.gdp)
	if err != nil {
		return err
	}
	var eu []solidarity.MemberState
	if d.participating {
		for _, c := range s.Participating {
			if c.Valid() {
				eu = append(eu, c)
			}
		}
	} else {
		eu = solidarity.PartIV()
	}
	in, err := key.FromDatasets(eu, pop, gdp)
	if err != nil {
		return d.popL.wrap("population", err)
	}
	k, err := key.Reference(in)
	if err != nil {
		return d.popL.wrap("population", err)
	}
	s.Key = k
	s.Population = map[simulation.Code]int64{}
	for _, sh := range k.Shares {
		f, _ := sh.Population.Float64()
		s.Population[sh.State] = int64(math.Round(f))
	}
	return nil
}

// defaultParticipating: under the 2015 rules the states with a commitment (and the
// states relocations came from), in protocol order; otherwise the 26 states of Part IV.
func (d *draft) defaultParticipating() []simulation.Code {
	s := d.s
	if s.Rules != simulation.Council2015 || len(s.Commitments) == 0 && len(s.KeyPercent) == 0 {
		return solidarity.PartIV()
	}
	var out []simulation.Code
	in := func(c simulation.Code) bool {
		_, a := s.Commitments[c]
		_, b := s.KeyPercent[c]
		return a || b || slices.Contains(s.Benefitting, c)
	}
	for _, c := range solidarity.MemberStates() {
		if in(c) {
			out = append(out, c)
		}
	}
	for _, a := range simulation.Associated {
		if in(a.Code) {
			out = append(out, a.Code)
		}
	}
	return out
}

// place gives an error of the engine the line of the topmost layer that wrote its
// field; the engine names fields as the file does, or without their section.
func (d *draft) place(err error) error {
	var e *solidarity.Error
	if !errors.As(err, &e) || e.File != "" {
		return err
	}
	out := *e
	top := d.layers[len(d.layers)-1]
	out.File = top.file
	for _, f := range []string{e.Field, "parameters." + e.Field, "data." + e.Field} {
		for i := len(d.layers) - 1; i >= 0; i-- {
			if line := d.layers[i].loc.Line(f); line > 0 {
				out.File, out.Line, out.Field = d.layers[i].file, line, f
				return &out
			}
		}
	}
	return &out
}
