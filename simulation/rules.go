package simulation

import (
	"fmt"
	"math"

	"solidarity"
	"solidarity/apportion"
)

// RuleSet names the rules a scenario runs under.
type RuleSet string

// The four rule sets.
const (
	AMMR2024     RuleSet = "ammr-2024"      // Regulation (EU) 2024/1351 Part IV
	Council2015  RuleSet = "council-2015"   // Council Decisions (EU) 2015/1523 and 2015/1601
	DublinIV2016 RuleSet = "dublin-iv-2016" // Commission proposal COM(2016) 270
	DublinOnly   RuleSet = "dublin-only"    // responsibility stays with the state of first entry
)

// Rules are the facts of one rule set, as data: what the key is, what a relocation
// not carried out costs, what a relocation brings the state that takes the person,
// and what refusing means. Values with a certainty other than V are defaults a
// scenario may change (RuleParams).
type Rules struct {
	Set     RuleSet
	Title   string
	Act     string // the legal text, or the proposal
	Key     string // how obligations arise
	Refusal string // what refusing costs, in words
	// Price is the euro value of one relocation not carried out: AMMR Art. 64(2)
	// EUR 20 000 (V); Dublin IV EUR 250 000 per applicant refused (V, §9.2); none
	// in 2015 (a refusal led to infringement proceedings, not a price).
	Price Number
	// Receipt is paid to the state of relocation per person relocated: 2015
	// Decisions Art. 10, EUR 6 000 (the amount is V in press, the article R).
	Receipt Number
	// Trigger is the corrective allocation's threshold, as a multiple of the
	// reference share (Dublin IV: 150 %, V).
	Trigger Number
	// Shares is true where the rule set shares responsibility at all.
	Shares bool
}

var ruleSets = []Rules{
	{
		Set: AMMR2024, Title: "AMMR 2024: Annual Solidarity Pool",
		Act:     "Regulation (EU) 2024/1351, Arts. 56–66",
		Key:     "fair share = reference key (50 % population, 50 % GDP, Art. 66) × the pool's reference number; benefitting states keep theirs but do not implement; deductions (Arts. 61–62); offsets (Art. 63)",
		Refusal: "not a legal option: the share refused is still owed; valued here at the Art. 64(2) price",
		Price:   Number{Value: 20_000, Known: true, Fact: solidarity.Fact{Source: "Regulation (EU) 2024/1351 Art. 64(2); recital 15", Certainty: "V"}, Name: "rules.price"},
		Shares:  true,
	},
	{
		Set: Council2015, Title: "2015 Council Decisions: emergency relocation",
		Act:     "Council Decisions (EU) 2015/1523 and 2015/1601",
		Key:     "legal commitments: the annexes of 2015/1601 and the pledges under 2015/1523 (or the Commission's 2015 key × the scheme's size)",
		Refusal: "no price: refusal led to infringement proceedings (Court of Justice, C-715/17, C-718/17, C-719/17, 2 April 2020)",
		Receipt: Number{Value: 6_000, Known: true, Fact: solidarity.Fact{Source: "Council Decisions 2015/1523 and 2015/1601 Art. 10 (historical-data.md §9.2: amount in press, article recalled)", Certainty: "R"}, Name: "rules.receipt"},
		Shares:  true,
	},
	{
		Set: DublinIV2016, Title: "Dublin IV proposal (2016): corrective allocation",
		Act:     "Commission proposal COM(2016) 270",
		Key:     "applications above 150 % of a state's reference share (50 % population, 50 % GDP) are allocated to states below 100 % of theirs",
		Refusal: "EUR 250 000 per applicant a state refuses to take",
		Price:   Number{Value: 250_000, Known: true, Fact: solidarity.Fact{Source: "COM(2016) 270 (historical-data.md §9.2)", Certainty: "V"}, Name: "rules.price"},
		Trigger: Number{Value: 1.5, Known: true, Fact: solidarity.Fact{Source: "COM(2016) 270 (historical-data.md §9.2)", Certainty: "V"}, Name: "rules.trigger"},
		Shares:  true,
	},
	{
		Set: DublinOnly, Title: "Dublin only: no solidarity",
		Act:     "Regulation (EU) No 604/2013 (first entry), without a solidarity mechanism",
		Key:     "no obligations: responsibility stays where people arrive",
		Refusal: "nothing to refuse",
	},
}

// RuleSets returns the four rule sets in a fixed order.
func RuleSets() []Rules { return append([]Rules(nil), ruleSets...) }

// Lookup returns the rules of set.
func Lookup(set RuleSet) (Rules, error) {
	for _, r := range ruleSets {
		if r.Set == set {
			return r, nil
		}
	}
	return Rules{}, solidarity.Errorf(solidarity.EINVALID, "unknown rule set %q (want ammr-2024, council-2015, dublin-iv-2016 or dublin-only)", set)
}

// RuleParams are the rule-set figures a scenario may set; an unset Number (zero
// Fact, Value 0 and Known false with an empty Name) takes the rule set's default.
type RuleParams struct {
	// Reference is the number of relocations per pool year (AMMR Art. 57(1); the
	// Commission proposal's floor of Art. 12(2)(a) is 30 000).
	Reference Number
	// Proposal is the Commission's proposed number, for the Art. 63(1) threshold.
	Proposal Number
	Price    Number
	Receipt  Number
	Trigger  Number
	Method   apportion.Method
}

// effective returns the params with the rule set's defaults filled in.
func (p RuleParams) effective(r Rules) RuleParams {
	if p.Price.Name == "" {
		p.Price = r.Price
	}
	if p.Receipt.Name == "" {
		p.Receipt = r.Receipt
	}
	if p.Trigger.Name == "" {
		p.Trigger = r.Trigger
	}
	if p.Method == "" {
		p.Method = apportion.RoundUp
	}
	return p
}

// MinReference is the floor of Art. 12(2)(a) for the Commission's proposal: 30 000
// relocations (V).
const MinReference = 30_000

func errorf(field, format string, args ...any) error {
	return &solidarity.Error{Code: solidarity.EINVALID, Field: field, Message: fmt.Sprintf(format, args...)}
}

// check bounds the rule-set figures before anything is computed with them: a price of
// 1e308 made every euro figure infinite, a negative one passed for a pool number.
func (p RuleParams) check() error {
	for _, x := range []struct {
		field  string
		n      Number
		lo, hi float64
	}{
		{"parameters.price", p.Price, 0, 1e7},
		{"parameters.receipt", p.Receipt, 0, 1e7},
		{"parameters.trigger", p.Trigger, 0, 10},
		{"parameters.proposal", p.Proposal, 0, 1e7},
	} {
		if v := x.n.Value; math.IsNaN(v) || v < x.lo || v > x.hi {
			return errorf(x.field, "%s is %v; want %v to %v", x.field, v, x.lo, x.hi)
		}
	}
	return nil
}
