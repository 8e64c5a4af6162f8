package solidarity

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync/atomic"
)

// This file is the one table of the solidarity measures (Art. 56(2), Art. 63): what a
// state may pledge, how its amount is counted and valued, which entry records its
// delivery and whether Art. 60(3) paces it. Everything that treats measures alike
// iterates the table — pledge and delivery validation, the ledger's delivery totals
// and their columns in both databases, the pool's sums and valuation, the service's
// checks against the pledge, the pace — so that a new measure is one row here, one
// migration per database (a column of the totals tables, named by Delivery.Column)
// and one legend colour.

// Unit is what a measure's amounts count.
type Unit string

const (
	// Persons counts whole persons: relocations, or applications taken over as
	// offsets. Payloads carry it in their Relocations field.
	Persons Unit = "persons"
	// EuroCents counts money in euro cents. Payloads carry it in their EURCents field.
	EuroCents Unit = "eur_cents"
)

// Valuation is how a measure's amount converts to relocation-equivalents, the common
// measure of the pool (Art. 56(2): the types are of equal value).
type Valuation string

const (
	// PerPerson values each person as one relocation-equivalent.
	PerPerson Valuation = "per-person"
	// AtRatio values euro at the cycle's ratio of Art. 12(2) (recital 15: EUR 20 000
	// per relocation).
	AtRatio Valuation = "at-ratio"
)

// Delivery is how a measure's delivery is recorded: one entry type, summed into one
// column of the delivery totals. Two measures may share one (relocation of applicants
// and of beneficiaries are both delivered as relocations).
type Delivery struct {
	Type    EntryType
	Article LegalBases // the legal basis its entries record
	// Column is the column of the totals tables (totals, totals_daily) that sums it,
	// in both databases.
	Column string
	// Rule says what a valid delivery of this type is, for the error when one is not.
	Rule string
}

// Measure is one row of the table of solidarity measures.
type Measure struct {
	Pledge  PledgeType
	Article LegalBasis // the provision that makes it a measure
	Unit    Unit
	// Valuation converts an amount to relocation-equivalents (Pledged units, delivered
	// units, coverage).
	Valuation Valuation
	// Delivery records what is delivered of it; nil when no delivery entry does
	// (offsets are taken over in a reply to an offset request, Art. 69(2)).
	Delivery *Delivery
	// Paced is Art. 60(3): non-financial pledges are implemented in proportion over
	// the year; financial contributions are not paced.
	Paced bool
	// Relocation marks a relocation pledge (Art. 56(2)(a)): what Art. 63(1) counts
	// against the Commission's proposal and Art. 63(2)(b) against half the fair share,
	// and what the case flow fills with people.
	Relocation bool
	// Label names the measure in prose and in the map's legend.
	Label string
}

// The deliveries of the measures of the AMMR.
var (
	relocationDelivery = &Delivery{Type: RelocationDelivered, Article: AMMR.Arts(67, 68), Column: "relocations",
		Rule: "a relocation delivery is a positive number of persons"}
	paymentDelivery = &Delivery{Type: PaymentMade, Article: LegalBases{AMMR.Art(64)}, Column: "payments",
		Rule: "a payment is a positive amount in euro"}
	alternativeDelivery = &Delivery{Type: AlternativeDelivered, Article: LegalBases{AMMR.Art(65)}, Column: "alternative",
		Rule: "alternative measures are valued as a positive amount in euro"}
)

// measures is the table, in display order (PledgeTypes), with what is derived from it.
// It is replaced whole, never changed in place, so that readers need no lock
// (AddMeasure), and the derived lists are made once, not on every delivery.
var measures atomic.Pointer[table]

type table struct {
	rows       []Measure
	deliveries []*Delivery
	types      []EntryType
	columns    []string // the deliveries' totals columns
	list       string   // columns joined with ", "
}

func newTable(rows []Measure) *table {
	t := &table{rows: rows}
	for _, m := range rows {
		if m.Delivery != nil && !slices.Contains(t.deliveries, m.Delivery) {
			t.deliveries = append(t.deliveries, m.Delivery)
			t.types = append(t.types, m.Delivery.Type)
			t.columns = append(t.columns, m.Delivery.Column)
		}
	}
	t.list = strings.Join(t.columns, ", ")
	return t
}

func init() {
	art562 := func(point string) LegalBasis { b := AMMR.Art(56, 2); b.Point = point; return b }
	measures.Store(newTable([]Measure{
		{Pledge: RelocationApplicants, Article: art562("a"), Unit: Persons, Valuation: PerPerson,
			Delivery: relocationDelivery, Paced: true, Relocation: true, Label: "relocation of applicants"},
		{Pledge: RelocationBeneficiaries, Article: art562("a"), Unit: Persons, Valuation: PerPerson,
			Delivery: relocationDelivery, Paced: true, Relocation: true, Label: "relocation of beneficiaries"},
		{Pledge: Offset, Article: AMMR.Art(63), Unit: Persons, Valuation: PerPerson,
			Paced: true, Label: "responsibility offsets"},
		{Pledge: Financial, Article: art562("b"), Unit: EuroCents, Valuation: AtRatio,
			Delivery: paymentDelivery, Label: "financial contribution"},
		// Alternative measures are valued in EUR at the pool's ratio: a working
		// assumption (spec rule 17, tag R/U).
		{Pledge: Alternative, Article: art562("c"), Unit: EuroCents, Valuation: AtRatio,
			Delivery: alternativeDelivery, Paced: true, Label: "alternative measures"},
	}))
}

// Measures returns the table of measures in display order. The slice is shared: do
// not change it.
func Measures() []Measure { return measures.Load().rows }

// MeasureOf returns the measure of pledge type t, and false for NoPledge and unknown
// types.
func MeasureOf(t PledgeType) (Measure, bool) {
	for _, m := range Measures() {
		if m.Pledge == t {
			return m, true
		}
	}
	return Measure{}, false
}

// MaxMeasures is how many measures the table can hold (the size of pool.Pledged).
const MaxMeasures = 16

// MeasureIndex returns the index of pledge type t in Measures, or -1 for NoPledge and
// unknown types.
func MeasureIndex(t PledgeType) int {
	for i, m := range Measures() {
		if m.Pledge == t {
			return i
		}
	}
	return -1
}

// Relocation reports whether t is a relocation pledge (Measure.Relocation).
func (t PledgeType) Relocation() bool {
	m, ok := MeasureOf(t)
	return ok && m.Relocation
}

// Amount returns the pledge's amount in the unit of its type (0 for NoPledge).
func (p Pledge) Amount() int64 {
	m, ok := MeasureOf(p.Type)
	if !ok {
		return 0
	}
	return m.Unit.Amount(p.Relocations, p.EUR)
}

// Amount returns the pledge's amount in the unit of its type (0 for NoPledge).
func (p PledgePayload) Amount() int64 {
	m, ok := MeasureOf(p.Type)
	if !ok {
		return 0
	}
	return m.Unit.Amount(p.Relocations, p.EURCents)
}

// MaxDeliveries is how many delivery types Totals can hold.
const MaxDeliveries = 8

// Deliveries returns the delivery types of the measures, each once, in table order:
// the order of Totals' amounts and of the totals tables' columns.
// The slice is shared: do not change it.
func Deliveries() []*Delivery { return measures.Load().deliveries }

// DeliveryTypes returns the entry types of Deliveries.
// The slice is shared: do not change it.
func DeliveryTypes() []EntryType { return measures.Load().types }

// DeliveryColumns returns the totals tables' columns of Deliveries, in their order
// ("relocations", "payments", "alternative"): each added by one migration per
// database. The slice is shared: do not change it.
func DeliveryColumns() []string { return measures.Load().columns }

// DeliveryColumnList is DeliveryColumns joined with ", ", for a SELECT or an INSERT.
func DeliveryColumnList() string { return measures.Load().list }

// DeliveryOf returns the delivery of entry type t and its index in Deliveries, and
// false when t records no delivery.
func DeliveryOf(t EntryType) (*Delivery, int, bool) {
	for i, d := range Deliveries() {
		if d.Type == t {
			return d, i, true
		}
	}
	return nil, -1, false
}

// Name is the short name of a delivery, its entry type up to the dot ("relocation" of
// relocation.delivered): what the CLI's --type takes.
func (d *Delivery) Name() string {
	name, _, _ := strings.Cut(string(d.Type), ".")
	return name
}

// DeliveryNamed returns the delivery whose Name is name.
func DeliveryNamed(name string) (*Delivery, bool) {
	for _, d := range Deliveries() {
		if d.Name() == name {
			return d, true
		}
	}
	return nil, false
}

// Unit returns the unit of a delivery: its measures' unit.
func (d *Delivery) Unit() Unit { return d.measure().Unit }

// Paced reports whether Art. 60(3) paces what is delivered of d: its measures are
// paced.
func (d *Delivery) Paced() bool { return d.measure().Paced }

// Value returns amount delivered of d in relocation-equivalents, at its measures'
// valuation: exact.
func (d *Delivery) Value(amount int64, eurPerRelocation Cents) *big.Rat {
	return d.measure().Value(amount, eurPerRelocation)
}

// measure returns the first measure delivered as d: measures that share a delivery
// share its unit, valuation and pace.
func (d *Delivery) measure() Measure {
	for _, m := range Measures() {
		if m.Delivery == d {
			return m
		}
	}
	return Measure{Unit: Persons, Valuation: PerPerson}
}

// AddMeasure adds m to the end of the table and returns a function that removes it
// again. It is for tests that show a new measure flows through every part (a real
// measure is a row of the table above); tests that use it must not run in parallel
// with others that depend on the table.
func AddMeasure(m Measure) (remove func()) {
	old := measures.Load()
	if len(old.rows) >= MaxMeasures {
		panic(fmt.Sprintf("solidarity: more than %d measures", MaxMeasures))
	}
	if m.Delivery != nil && len(Deliveries()) >= MaxDeliveries && !slices.Contains(old.deliveries, m.Delivery) {
		panic(fmt.Sprintf("solidarity: more than %d delivery types", MaxDeliveries))
	}
	measures.Store(newTable(append(slices.Clone(old.rows), m)))
	return func() { measures.Store(old) }
}

// PledgeTypes lists the pledge types in display order: the measures, then NoPledge.
func PledgeTypes() []PledgeType {
	var out []PledgeType
	for _, m := range Measures() {
		out = append(out, m.Pledge)
	}
	return append(out, NoPledge)
}

// InUnits reports whether a pledge of type t is counted in persons (else in EUR).
func (t PledgeType) InUnits() bool {
	m, ok := MeasureOf(t)
	return ok && m.Unit == Persons
}

// Valid reports whether t is a known pledge type.
func (t PledgeType) Valid() bool {
	_, ok := MeasureOf(t)
	return ok || t == NoPledge
}

// Amount returns the amount of a pledge or delivery in unit u: its persons or its
// cents.
func (u Unit) Amount(persons int64, cents Cents) int64 {
	if u == EuroCents {
		return int64(cents)
	}
	return persons
}

// Value returns amount, in the measure's unit, in relocation-equivalents: exact.
func (m Measure) Value(amount int64, eurPerRelocation Cents) *big.Rat {
	if m.Valuation == AtRatio {
		return new(big.Rat).Quo(big.NewRat(amount, 1), big.NewRat(int64(eurPerRelocation), 1))
	}
	return big.NewRat(amount, 1)
}

// Amounts are sums of a state's deliveries, one per delivery type in the order of
// Deliveries, each in its measure's unit.
type Amounts [MaxDeliveries]int64

// Of returns the amount of delivery type t (0 when t is not a delivery).
func (a Amounts) Of(t EntryType) int64 {
	if _, i, ok := DeliveryOf(t); ok {
		return a[i]
	}
	return 0
}

// Set sets the amount of delivery type t; it does nothing when t is not a delivery.
func (a *Amounts) Set(t EntryType, v int64) {
	if _, i, ok := DeliveryOf(t); ok {
		a[i] = v
	}
}

// With returns a with the amount of delivery type t set to v.
func (a Amounts) With(t EntryType, v int64) Amounts {
	a.Set(t, v)
	return a
}

// Targets returns pointers to the first n amounts, in the order of Deliveries: what a
// store scans a totals row into.
func (a *Amounts) Targets(n int) []any {
	out := make([]any, n)
	for i := range n {
		out[i] = &a[i]
	}
	return out
}

// Args returns the first n amounts, in the order of Deliveries: what a store binds to
// the totals columns.
func (a Amounts) Args(n int) []any {
	out := make([]any, n)
	for i := range n {
		out[i] = a[i]
	}
	return out
}
