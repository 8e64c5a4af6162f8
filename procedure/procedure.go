// Package procedure chooses the asylum procedure track after screening (Regulation
// (EU) 2024/1348, APR): the border procedure where its conditions hold — mandatory on
// the grounds of Art. 45(1) — otherwise the regular procedure, with every reason and
// article. Recognition rates for the 20 % ground are data with their source and year
// (data/recognition-rates.csv), updatable, never a constant in the code.
package procedure

import (
	_ "embed"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"

	"solidarity"
)

// Track is a procedure track.
type Track string

const (
	Border  Track = "border"  // APR Arts. 43–54
	Regular Track = "regular" // the procedure on the territory
)

// Route is how the application came about (APR Art. 43(1)(a)–(d)).
type Route string

const (
	AtBorder     Route = "border-crossing" // (a) at a border crossing point or in a transit zone
	Apprehension Route = "apprehension"    // (b) after an irregular crossing
	SAR          Route = "sar"             // (c) disembarkation after search and rescue
	Relocated    Route = "relocation"      // (d) relocation under AMMR Art. 67(11)
	Inland       Route = "inland"          // none of those: the border procedure is not available
)

// Facts are what the track depends on, established at screening and registration.
type Facts struct {
	ScreeningDone        bool
	AuthorisedEntry      bool
	MeetsEntryConditions bool
	Route                Route
	UnaccompaniedMinor   bool
	Nationality          string // ISO 3166-1 alpha-2 (or "" when stateless and unknown)
	Misled               bool   // Art. 42(1)(c): deception on identity or documents
	SecurityDanger       bool   // Art. 42(1)(f); for minors Art. 42(3)(b)
	// Art. 53(2): the border procedure is not applied, or stops, when any holds.
	SpecialReceptionUnmet  bool // (b) support for special reception needs not available at the border
	ProceduralGuaranteeGap bool // (c) special procedural guarantees not available there
	MedicalReasons         bool // (d) including mental health
	DetentionGuaranteesGap bool // (e)
	// Capacity (Arts. 48, 50).
	CapacityNotified    bool // Art. 48: adequate capacity reached and notified: ground (j) may be dropped
	AnnualMaxAuthorised bool // Art. 50: the Commission authorised not applying (c) and (j)
}

// Params are the values of the rules that are not read in the legal text.
type Params struct {
	// RecognitionThreshold is the Art. 42(1)(j) threshold: a Union-wide first-instance
	// recognition rate of 20 % or lower. The threshold is supported by Crisis Regulation
	// Art. 11(3); the article's wording was recalled, not read (spec §5, tag M).
	RecognitionThreshold *big.Rat
}

// DefaultParams returns the spec's values.
func DefaultParams() Params { return Params{RecognitionThreshold: big.NewRat(20, 100)} }

// Rate is a first-instance recognition rate for one nationality and year.
type Rate struct {
	Nationality string // name
	ISO2        string
	Year        int
	Percent     *big.Rat
	Bound       string // "exact", "at-most" (≤ Percent) or "below" (< Percent)
	Certainty   solidarity.Certainty
	Source      string
}

// Rates is a table of recognition rates.
type Rates []Rate

//go:embed data/recognition-rates.csv
var shippedRates string

// ShippedRates returns the rates shipped with solidarity (historical-data.md §7; partial).
func ShippedRates() Rates {
	r, err := ParseRates("recognition-rates.csv", strings.NewReader(shippedRates))
	if err != nil {
		panic(err) // the shipped file is tested
	}
	return r
}

// ParseRates reads a rates CSV with the header of data/recognition-rates.csv.
func ParseRates(name string, rd io.Reader) (Rates, error) {
	cr := csv.NewReader(rd)
	want := []string{"nationality", "iso2", "year", "rate_percent", "bound", "certainty", "source"}
	head, err := cr.Read()
	if err != nil || strings.Join(head, ",") != strings.Join(want, ",") {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: name, Line: 1, Message: "want the header " + strings.Join(want, ",")}
	}
	var out Rates
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			e := &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: err.Error()}
			if pe, ok := errors.AsType[*csv.ParseError](err); ok {
				e.Line, e.Message = pe.Line, pe.Err.Error()
			}
			return nil, e
		}
		line, _ := cr.FieldPos(0)
		fail := func(field, msg string) error {
			return &solidarity.Error{Code: solidarity.EINVALID, File: name, Line: line, Field: field, Message: msg}
		}
		y, err := strconv.Atoi(rec[2])
		if err != nil || y < 2000 || y > 2100 {
			return nil, fail("year", "not a year")
		}
		p, ok := new(big.Rat).SetString(rec[3])
		if !ok || p.Sign() < 0 || p.Cmp(big.NewRat(100, 1)) > 0 {
			return nil, fail("rate_percent", "a percentage between 0 and 100")
		}
		switch rec[4] {
		case "exact", "at-most", "below":
		default:
			return nil, fail("bound", "exact, at-most or below")
		}
		if !isAlpha2(rec[1]) {
			return nil, fail("iso2", "an ISO 3166-1 alpha-2 code (two letters)")
		}
		out = append(out, Rate{Nationality: rec[0], ISO2: strings.ToUpper(rec[1]), Year: y, Percent: p, Bound: rec[4],
			Certainty: solidarity.Certainty(rec[5]), Source: rec[6]})
	}
	return out, nil
}

func isAlpha2(s string) bool {
	if len(s) != 2 {
		return false
	}
	for i := range 2 {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// Latest returns the most recent rate for a nationality.
func (rs Rates) Latest(iso2 string) (Rate, bool) {
	var best Rate
	found := false
	for _, r := range rs {
		if r.ISO2 == strings.ToUpper(iso2) && (!found || r.Year > best.Year) {
			best, found = r, true
		}
	}
	return best, found
}

// Answer is a three-valued finding: the data may not settle a ground.
type Answer string

const (
	Yes     Answer = "yes"
	No      Answer = "no"
	Unknown Answer = "unknown"
)

// Reason is one step of the decision with its article.
type Reason struct {
	Article string `json:"article"`
	Finding string `json:"finding"`
}

// Decision is the track chosen and why.
type Decision struct {
	Track     Track    `json:"track"`
	Available bool     `json:"border_procedure_available"` // Art. 43(1)
	Mandatory Answer   `json:"border_procedure_mandatory"` // Art. 45(1)
	Grounds   []string `json:"grounds"`                    // the Art. 42 grounds that hold
	Reasons   []Reason `json:"reasons"`
	NeedsData []string `json:"needs_data,omitempty"`
	RateUsed  *Rate    `json:"rate_used,omitempty"`
}

// Decide applies APR Arts. 42, 43, 45, 48, 50, 53 to the facts.
func Decide(f Facts, rates Rates, p Params) Decision {
	if p.RecognitionThreshold == nil {
		p = DefaultParams()
	}
	d := Decision{Track: Regular, Mandatory: No}
	say := func(article, format string, args ...any) {
		d.Reasons = append(d.Reasons, Reason{Article: article, Finding: fmt.Sprintf(format, args...)})
	}
	// Art. 43(1): the preconditions of the border procedure.
	switch {
	case !f.ScreeningDone:
		say("Art. 43(1) APR", "screening not done: the border procedure is not available")
	case f.AuthorisedEntry:
		say("Art. 43(1) APR", "the applicant was authorised to enter")
	case f.MeetsEntryConditions:
		say("Art. 43(1) APR", "the applicant meets the entry conditions")
	case f.Route == Inland || f.Route == "":
		say("Art. 43(1)(a)–(d) APR", "the application did not follow a border crossing, an apprehension, a SAR disembarkation or a relocation")
	default:
		d.Available = true
		say(solidarity.LegalBasis{Act: solidarity.APR, Article: 43, Paragraph: 1, Point: map[Route]string{AtBorder: "a", Apprehension: "b", SAR: "c", Relocated: "d"}[f.Route]}.String(), "the border procedure is available (route: %s)", f.Route)
	}
	// Art. 53(2): exclusions at any stage.
	excl := map[string]bool{"(b) special reception needs cannot be met at the border": f.SpecialReceptionUnmet,
		"(c) special procedural guarantees cannot be provided there": f.ProceduralGuaranteeGap,
		"(d) medical reasons": f.MedicalReasons, "(e) detention guarantees not met": f.DetentionGuaranteesGap}
	excluded := false
	for _, k := range []string{"(b) special reception needs cannot be met at the border", "(c) special procedural guarantees cannot be provided there", "(d) medical reasons", "(e) detention guarantees not met"} {
		if excl[k] {
			excluded = true
			say(solidarity.LegalBasis{Act: solidarity.APR, Article: 53, Paragraph: 2, Point: k[1:2]}.String(), "not applied: %s", k[4:])
		}
	}

	// The grounds. An unaccompanied minor: only security (Art. 42(3)(b), Art. 53(1)).
	jAnswer := No
	if f.UnaccompaniedMinor {
		if f.SecurityDanger {
			d.Grounds = append(d.Grounds, "42(3)(b)")
			say("Art. 42(3)(b) APR; Art. 53(1) APR", "unaccompanied minor considered a danger to national security or public order")
		} else {
			say("Art. 53(1) APR", "unaccompanied minor: only the security ground of Art. 42(3)(b) can apply, and it does not")
		}
	} else {
		if f.Misled {
			d.Grounds = append(d.Grounds, "42(1)(c)")
			say("Art. 42(1)(c) APR", "the applicant misled the authorities on identity or documents")
		}
		if f.SecurityDanger {
			d.Grounds = append(d.Grounds, "42(1)(f)")
			say("Art. 42(1)(f) APR", "the applicant is a danger to national security or public order")
		}
		jAnswer = recognitionGround(f, rates, p, &d, say)
		if jAnswer == Yes {
			d.Grounds = append(d.Grounds, "42(1)(j)")
		}
	}
	// Arts. 48 and 50: capacity lets (j), and with the annual maximum (c), drop out.
	mandatoryGrounds := 0
	for _, g := range d.Grounds {
		switch {
		case g == "42(1)(j)" && (f.CapacityNotified || f.AnnualMaxAuthorised):
			say("Art. 48 APR; Art. 50 APR", "adequate capacity reached: the 20 %% ground need not be applied")
		case g == "42(1)(c)" && f.AnnualMaxAuthorised:
			say("Art. 50 APR", "annual maximum reached and authorised: the deception ground need not be applied")
		default:
			mandatoryGrounds++
		}
	}
	switch {
	case !d.Available || excluded:
		d.Mandatory = No
	case mandatoryGrounds > 0:
		d.Mandatory = Yes
	case jAnswer == Unknown && !(f.CapacityNotified || f.AnnualMaxAuthorised):
		d.Mandatory = Unknown
	}
	switch {
	case d.Mandatory == Yes:
		d.Track = Border
		say("Art. 45(1) APR", "the border procedure is mandatory")
	case d.Mandatory == Unknown:
		d.Track = Regular
		say("Art. 45(1) APR", "whether the border procedure is mandatory depends on a recognition rate that is not known; the regular procedure is shown until it is")
	case d.Available && !excluded:
		say("Art. 43(1) APR", "the border procedure may be applied but is not mandatory: the Member State decides")
	}
	return d
}

func recognitionGround(f Facts, rates Rates, p Params, d *Decision, say func(string, string, ...any)) Answer {
	threshold := new(big.Rat).Mul(p.RecognitionThreshold, big.NewRat(100, 1))
	if f.Nationality == "" {
		d.NeedsData = append(d.NeedsData, "nationality")
		say("Art. 42(1)(j) APR", "nationality unknown: the 20 %% ground cannot be assessed")
		return Unknown
	}
	r, ok := rates.Latest(f.Nationality)
	if !ok {
		d.NeedsData = append(d.NeedsData, "recognition rate for "+strings.ToUpper(f.Nationality))
		say("Art. 42(1)(j) APR", "no recognition rate for %s in the data: add it from Eurostat migr_asydcfsta", strings.ToUpper(f.Nationality))
		return Unknown
	}
	d.RateUsed = &r
	at := r.Percent.Cmp(threshold)
	var below bool
	switch r.Bound {
	case "exact":
		below = at <= 0
	case "at-most":
		below = at <= 0
		if !below {
			d.NeedsData = append(d.NeedsData, "exact recognition rate for "+r.ISO2)
			say("Art. 42(1)(j) APR", "%s's rate is only known to be at most %s %%, above the threshold: not settled", r.Nationality, r.Percent.FloatString(1))
			return Unknown
		}
	case "below":
		below = at <= 0
		if !below {
			d.NeedsData = append(d.NeedsData, "exact recognition rate for "+r.ISO2)
			return Unknown
		}
	}
	word := map[bool]string{true: "at or below", false: "above"}[below]
	say("Art. 42(1)(j) APR", "%s: recognition rate %s%s %% (%d, %s, tag %s) is %s the %s %% threshold",
		r.Nationality, map[string]string{"exact": "", "at-most": "at most ", "below": "below "}[r.Bound], r.Percent.FloatString(1), r.Year, r.Source, r.Certainty, word, threshold.FloatString(0))
	if below {
		return Yes
	}
	return No
}
