// Package report turns computed keys, pools and balances into the flat, documented
// shapes that every output uses: JSON for the API and --format json, CSV, aligned
// tables, and the HTML templates. Exact rationals become decimal numbers here, and only
// here, for display: the JSON also carries each share as an exact fraction so that
// anyone can check that shares sum to exactly one. Only the edges call it — the web
// layer and the CLI; the services work on the exact results.
//
//	report.go    keys, datasets and pools (FromKey, FromPool)
//	balances.go  the ledger's balances (FromBalances)
//	text.go      the CLI's tables and CSV
//	csv.go       the dashboard's table as CSV (GET /pool/{year}.csv)
package report

import (
	"encoding/json"
	"fmt"
	"math/big"
	"time"

	"solidarity"
	"solidarity/apportion"
	"solidarity/key"
	"solidarity/pool"
)

// Decimal digits used for display. Shares keep 12 decimals so that 26 of them sum to 1
// within 1e-11; the exact fraction is alongside.
const (
	shareDecimals = 12
	unitDecimals  = 2
)

// Num is a JSON number written from an exact rational with fixed decimals.
type Num = json.Number

func num(r *big.Rat, decimals int) *Num {
	if r == nil {
		return nil
	}
	n := Num(r.FloatString(decimals))
	return &n
}

// FormatEUR renders an amount written by EUR for people: "EUR 1,234,567.89"
// (solidarity.Cents.String, the one place money is formatted).
func FormatEUR(n Num) string {
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return string(n)
	}
	r.Mul(r, big.NewRat(100, 1))
	return solidarity.Cents(r.Num().Int64() / r.Denom().Int64()).String()
}

// EUR renders cents as a JSON number with two decimals.
func EUR(c solidarity.Cents) Num { return eur(c) }

func eur(c solidarity.Cents) Num {
	sign, v := "", int64(c)
	if v < 0 {
		sign, v = "-", -v
	}
	return Num(fmt.Sprintf("%s%d.%02d", sign, v/100, v%100))
}

func date(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}

// Fact is provenance in output form.
type Fact struct {
	Source    string `json:"source,omitempty"`
	Certainty string `json:"certainty,omitempty"`
	Note      string `json:"note,omitempty"`
}

func fact(f solidarity.Fact) Fact {
	return Fact{Source: f.Source, Certainty: string(f.Certainty), Note: f.Note}
}

// Numbers are Union totals.
type Numbers struct {
	Relocations int64 `json:"relocations"`
	EUR         Num   `json:"eur"`
	Fact
}

// Dataset describes the data a key was computed on.
type Dataset struct {
	ID        string   `json:"id"`
	Indicator string   `json:"indicator"`
	Unit      string   `json:"unit"`
	Title     string   `json:"title,omitempty"`
	Vintage   string   `json:"vintage,omitempty"`
	Source    string   `json:"source,omitempty"`
	Caveat    string   `json:"caveat,omitempty"`
	Missing   []string `json:"missing,omitempty"` // states of the whole EU-27 without a figure
}

func dataset(d *solidarity.Dataset) *Dataset {
	if d == nil {
		return nil
	}
	out := &Dataset{ID: d.ID, Indicator: string(d.Indicator), Unit: d.Indicator.Unit(), Title: d.Title,
		Vintage: d.Vintage, Source: d.Source, Caveat: d.Caveat}
	for _, m := range d.Missing(solidarity.MemberStates()) {
		out.Missing = append(out.Missing, string(m))
	}
	return out
}

// KeyShare is one row of a key.
type KeyShare struct {
	State           string `json:"state"`
	Name            string `json:"name"`
	Population      *Num   `json:"population"`
	GDP             *Num   `json:"gdp_meur"`
	PopulationShare *Num   `json:"population_share"`
	GDPShare        *Num   `json:"gdp_share"`
	Share           *Num   `json:"share"`
	ShareExact      string `json:"share_exact"`
	SharePercent    *Num   `json:"share_percent"`
}

// Key is a whole key.
type Key struct {
	Name       string     `json:"name"`
	Article    string     `json:"article"`
	Population *Dataset   `json:"population,omitempty"`
	GDP        *Dataset   `json:"gdp,omitempty"`
	States     []KeyShare `json:"states,omitempty"` // left out of a pool report, whose states carry the key columns
	Sum        string     `json:"sum_exact"`
	Caveats    []string   `json:"caveats,omitempty"`
}

// FromKey renders k; pop and gdp may be nil when the key was built from other inputs.
func FromKey(k *key.Key, pop, gdp *solidarity.Dataset) *Key {
	out := &Key{Name: k.Name, Article: k.Article, Population: dataset(pop), GDP: dataset(gdp), Sum: k.Sum().RatString()}
	for _, s := range k.Shares {
		out.States = append(out.States, keyShare(s))
	}
	out.Caveats = caveats(pop, gdp)
	return out
}

func keyShare(s key.Share) KeyShare {
	return KeyShare{State: string(s.State), Name: s.State.Name(),
		Population: num(s.Population, 0), GDP: num(s.GDP, 1),
		PopulationShare: num(s.PopulationShare, shareDecimals), GDPShare: num(s.GDPShare, shareDecimals),
		Share: num(s.Share, shareDecimals), ShareExact: s.Share.RatString(),
		SharePercent: num(new(big.Rat).Mul(s.Share, big.NewRat(100, 1)), 4)}
}

func caveats(ds ...*solidarity.Dataset) []string {
	var c []string
	for _, d := range ds {
		if d != nil && d.Caveat != "" {
			c = append(c, fmt.Sprintf("%s: %s", d.ID, d.Caveat))
		}
	}
	return c
}

// Pledged is pledges summed by type.
type Pledged struct {
	RelocationApplicants    int64 `json:"relocation_applicants"`
	RelocationBeneficiaries int64 `json:"relocation_beneficiaries"`
	Offsets                 int64 `json:"offsets"`
	FinancialEUR            Num   `json:"financial_eur"`
	AlternativeEUR          Num   `json:"alternative_eur"`
}

func pledged(p pool.Pledged) Pledged {
	return Pledged{RelocationApplicants: p.Of(solidarity.RelocationApplicants), RelocationBeneficiaries: p.Of(solidarity.RelocationBeneficiaries),
		Offsets: p.Of(solidarity.Offset), FinancialEUR: eur(solidarity.Cents(p.Of(solidarity.Financial))), AlternativeEUR: eur(solidarity.Cents(p.Of(solidarity.Alternative)))}
}

// Pledge is one pledge as recorded.
type Pledge struct {
	Type        string `json:"type"`
	Relocations int64  `json:"relocations,omitempty"`
	EUR         *Num   `json:"eur,omitempty"`
	Date        string `json:"date,omitempty"`
	Fact
}

// Deduction is one deduction in force.
type Deduction struct {
	Date        string `json:"date"`
	Full        bool   `json:"full"`
	Fraction    *Num   `json:"fraction,omitempty"`
	Relocations int64  `json:"relocations,omitempty"`
	Act         string `json:"act"`
	Article     string `json:"article,omitempty"`
	Fact
}

// PoolState is one state's row of the pool.
type PoolState struct {
	KeyShare
	Statuses          []string    `json:"statuses"`
	StatusFact        *Fact       `json:"status_source,omitempty"`
	Benefitting       bool        `json:"benefitting"`
	Quota             *Num        `json:"quota"`
	FairShare         int64       `json:"fair_share"`
	FairShareEUR      Num         `json:"fair_share_eur"`
	Deducted          *Num        `json:"deducted"`
	Obligation        *Num        `json:"obligation"`
	HasObligation     bool        `json:"has_obligation"` // obligation > 0 (exact, not the rounded figure)
	PledgeKnown       bool        `json:"pledge_known"`
	Pledged           *Pledged    `json:"pledged"`
	PledgedUnits      *Num        `json:"pledged_units"`
	DominantPledge    string      `json:"dominant_pledge,omitempty"`
	Coverage          *Num        `json:"coverage"`
	Shortfall         *Num        `json:"shortfall"`
	MayOfferOffsets   string      `json:"may_offer_offsets"`
	OwnRelocationHalf string      `json:"own_relocation_pledge_half_fair_share"`
	Deductions        []Deduction `json:"deductions"`
	Pledges           []Pledge    `json:"pledges"`
}

// Union is the Union-level part of the pool.
type Union struct {
	Proposal              Numbers  `json:"proposal"`
	Reference             Numbers  `json:"reference"`
	FairShareTotal        int64    `json:"fair_share_total"`
	FairShareEURTotal     Num      `json:"fair_share_eur_total"`
	ObligationTotal       *Num     `json:"obligation_total"`
	PledgedKnown          Pledged  `json:"pledged_known"`
	RelocationPledges     int64    `json:"relocation_pledges_known"` // applicants + beneficiaries, the Art. 63(1) count
	PledgedUnitsKnown     *Num     `json:"pledged_units_known"`
	UnknownPledges        []string `json:"unknown_pledges"`
	SARRelocations        *Num     `json:"sar_relocations,omitempty"`
	SARShare              *Num     `json:"sar_share,omitempty"`
	SARFact               *Fact    `json:"sar_source,omitempty"`
	OffsetThreshold       *Num     `json:"art63_1_threshold"`
	BenefittingMayRequest string   `json:"art63_1_benefitting_may_request_offsets"`
	SharesSumExact        string   `json:"shares_sum_exact"`
}

// Cycle describes the cycle of a pool.
type Cycle struct {
	Year             int    `json:"year"`
	Title            string `json:"title"`
	Illustrative     bool   `json:"illustrative"`
	Demonstration    bool   `json:"demonstration"` // a demonstration's own cycle: generated data, not a pool
	Note             string `json:"note,omitempty"`
	LegalAct         string `json:"legal_act,omitempty"`
	Adopted          string `json:"adopted,omitempty"`
	PoolStart        string `json:"pool_start,omitempty"`
	Deadline         string `json:"deadline,omitempty"`
	EURPerRelocation Num    `json:"eur_per_relocation"`
	File             string `json:"file,omitempty"`
}

// Pool is the whole pool report.
type Pool struct {
	Cycle             Cycle       `json:"cycle"`
	Method            string      `json:"method"`
	MethodDescription string      `json:"method_description"`
	AsOf              string      `json:"as_of,omitempty"`
	Key               Key         `json:"key"`
	States            []PoolState `json:"states"`
	Union             Union       `json:"union"`
	Notes             []string    `json:"notes,omitempty"`
	Warnings          []string    `json:"warnings,omitempty"`
	Caveats           []string    `json:"caveats,omitempty"`
}

// State returns the row for m.
func (p *Pool) State(m string) (PoolState, bool) {
	for _, s := range p.States {
		if s.State == m {
			return s, true
		}
	}
	return PoolState{}, false
}

func tri(t pool.Tri) string { return string(t) }

// FromPool renders r. warnings are cycle-level warnings (cyclefile.Warnings).
func FromPool(r *pool.Result, pop, gdp *solidarity.Dataset, warnings []string) *Pool {
	c := r.Cycle
	out := &Pool{
		Cycle: Cycle{Year: c.Year, Title: c.Title, Illustrative: c.Illustrative, Demonstration: c.Demonstration, Note: c.Note, LegalAct: c.LegalAct,
			Adopted: date(c.Adopted), PoolStart: date(c.PoolStart), Deadline: date(c.Deadline),
			EURPerRelocation: eur(c.EURPerRelocation), File: c.File},
		Method: string(r.Method), MethodDescription: apportion.Method(r.Method).Describe(),
		AsOf: date(r.AsOf), Notes: r.Notes, Warnings: warnings,
	}
	k := FromKey(r.Key, pop, gdp)
	out.Key = *k
	out.Key.States = nil // the states carry their key columns
	out.Caveats = k.Caveats
	for _, s := range r.States {
		ps := PoolState{KeyShare: keyShare(s.Key), Statuses: statuses(s.Status), Benefitting: s.Status.Benefitting,
			Quota: num(s.Quota, unitDecimals), FairShare: s.FairShare, FairShareEUR: eur(s.FairShareEUR),
			Deducted: num(s.Deducted, unitDecimals), Obligation: num(s.Obligation, unitDecimals), HasObligation: s.Obligation.Sign() > 0,
			PledgeKnown: s.PledgeKnown, PledgedUnits: num(s.PledgedUnits, unitDecimals),
			Coverage: num(s.Coverage, 4), Shortfall: num(s.Shortfall, unitDecimals),
			MayOfferOffsets: tri(s.MayOfferOffsets), OwnRelocationHalf: tri(s.OwnRelocationHalf),
			Deductions: []Deduction{}, Pledges: []Pledge{}}
		if s.Status.Source != "" {
			f := fact(s.Status.Fact)
			ps.StatusFact = &f
		}
		if s.PledgeKnown {
			p := pledged(s.Pledged)
			ps.Pledged = &p
			ps.DominantPledge = string(s.Pledged.Dominant(c.EURPerRelocation))
		}
		for _, d := range s.Deductions {
			ps.Deductions = append(ps.Deductions, Deduction{Date: date(d.Date), Full: d.Full, Fraction: num(d.Fraction, 4),
				Relocations: d.Relocations, Act: d.Act, Article: d.Article, Fact: fact(d.Fact)})
		}
		for _, p := range s.Pledges {
			pl := Pledge{Type: string(p.Type), Relocations: p.Relocations, Date: date(p.Date), Fact: fact(p.Fact)}
			if !p.Type.InUnits() && p.Type != solidarity.NoPledge {
				e := eur(p.EUR)
				pl.EUR = &e
			}
			ps.Pledges = append(ps.Pledges, pl)
		}
		out.States = append(out.States, ps)
	}
	u := r.Union
	out.Union = Union{
		Proposal:       Numbers{Relocations: u.Proposal.Relocations, EUR: eur(u.Proposal.EUR), Fact: fact(u.Proposal.Fact)},
		Reference:      Numbers{Relocations: u.Reference.Relocations, EUR: eur(u.Reference.EUR), Fact: fact(u.Reference.Fact)},
		FairShareTotal: u.FairShareTotal, FairShareEURTotal: eur(u.FairShareEURTotal),
		ObligationTotal: num(u.ObligationTotal, unitDecimals), PledgedKnown: pledged(u.Pledged), RelocationPledges: u.Pledged.Relocations(),
		PledgedUnitsKnown: num(u.PledgedUnits, unitDecimals), UnknownPledges: []string{},
		SARRelocations: num(u.SARRelocations, unitDecimals), SARShare: num(c.SARShare, 4),
		OffsetThreshold: num(u.OffsetThreshold, unitDecimals), BenefittingMayRequest: tri(u.BenefittingMayRequest),
		SharesSumExact: r.Key.Sum().RatString(),
	}
	if c.SARShare != nil {
		f := fact(c.SARFact)
		out.Union.SARFact = &f
	}
	for _, m := range u.UnknownPledges {
		out.Union.UnknownPledges = append(out.Union.UnknownPledges, string(m))
	}
	return out
}

func statuses(s solidarity.Status) []string {
	out := []string{}
	if s.UnderPressure {
		out = append(out, "under-pressure")
	}
	if s.Benefitting {
		out = append(out, "benefitting")
	}
	if s.AtRisk {
		out = append(out, "at-risk")
	}
	if s.SignificantSituation {
		out = append(out, "significant-situation")
	}
	return out
}

// FromDataset describes d without its rows.
func FromDataset(d *solidarity.Dataset) *Dataset { return dataset(d) }

// Observation is one figure of a dataset with its provenance.
type Observation struct {
	State   string `json:"state"`
	Name    string `json:"name"`
	Value   *Num   `json:"value"` // null when the source has no figure
	Period  string `json:"period,omitempty"`
	Flag    string `json:"flag,omitempty"`
	Vintage string `json:"vintage,omitempty"`
	Source  string `json:"source,omitempty"`
	Note    string `json:"note,omitempty"`
}

// DatasetRows is a dataset with every figure.
type DatasetRows struct {
	Dataset
	Rows []Observation `json:"rows"`
}

// FromDatasetRows describes d with its rows.
func FromDatasetRows(d *solidarity.Dataset) *DatasetRows {
	out := &DatasetRows{Dataset: *dataset(d), Rows: []Observation{}}
	for _, o := range d.Rows {
		out.Rows = append(out.Rows, Observation{State: string(o.State), Name: o.State.Name(), Value: num(o.Value, 1),
			Period: o.Period, Flag: o.Flag, Vintage: o.Vintage, Source: o.Source, Note: o.Note})
	}
	return out
}
