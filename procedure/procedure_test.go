package procedure_test

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/procedure"
)

// sar is a person disembarked after search and rescue, screened, not authorised to
// enter: the border procedure is available (APR Art. 43(1)(c)).
func sar(nat string) procedure.Facts {
	return procedure.Facts{ScreeningDone: true, Route: procedure.SAR, Nationality: nat}
}

func TestDecide(t *testing.T) {
	rates := procedure.ShippedRates()
	for _, tc := range []struct {
		name      string
		f         procedure.Facts
		track     procedure.Track
		mandatory procedure.Answer
		grounds   []string
	}{
		{"Art. 42(1)(j): Bangladesh 3 % ≤ 20 %", sar("BD"), procedure.Border, procedure.Yes, []string{"42(1)(j)"}},
		{"Art. 42(1)(j): Pakistan 12 % ≤ 20 %", sar("PK"), procedure.Border, procedure.Yes, []string{"42(1)(j)"}},
		{"Art. 42(1)(j): Tunisia at most 5 %", sar("TN"), procedure.Border, procedure.Yes, []string{"42(1)(j)"}},
		{"Art. 42(1)(j): Eritrea 83 % is above", sar("ER"), procedure.Regular, procedure.No, nil},
		{"Art. 42(1)(j): no rate for Nigeria — unknown, not guessed", sar("NG"), procedure.Regular, procedure.Unknown, nil},
		{"Art. 42(1)(c): deception", func() procedure.Facts { f := sar("ER"); f.Misled = true; return f }(), procedure.Border, procedure.Yes, []string{"42(1)(c)"}},
		{"Art. 42(1)(f): security", func() procedure.Facts { f := sar("SY"); f.SecurityDanger = true; return f }(), procedure.Border, procedure.Yes, []string{"42(1)(f)"}},
		{"Art. 53(1): unaccompanied minor, low rate: not the border procedure", func() procedure.Facts { f := sar("BD"); f.UnaccompaniedMinor = true; return f }(), procedure.Regular, procedure.No, nil},
		{"Art. 42(3)(b): unaccompanied minor, security", func() procedure.Facts {
			f := sar("BD")
			f.UnaccompaniedMinor, f.SecurityDanger = true, true
			return f
		}(), procedure.Border, procedure.Yes, []string{"42(3)(b)"}},
		{"Art. 53(2)(d): medical reasons stop it", func() procedure.Facts { f := sar("BD"); f.MedicalReasons = true; return f }(), procedure.Regular, procedure.No, []string{"42(1)(j)"}},
		{"Art. 53(2)(b): special reception needs", func() procedure.Facts { f := sar("BD"); f.SpecialReceptionUnmet = true; return f }(), procedure.Regular, procedure.No, []string{"42(1)(j)"}},
		{"Art. 43(1): not screened", func() procedure.Facts { f := sar("BD"); f.ScreeningDone = false; return f }(), procedure.Regular, procedure.No, []string{"42(1)(j)"}},
		{"Art. 43(1): authorised to enter", func() procedure.Facts { f := sar("BD"); f.AuthorisedEntry = true; return f }(), procedure.Regular, procedure.No, []string{"42(1)(j)"}},
		{"Art. 43(1): inland application", func() procedure.Facts { f := sar("BD"); f.Route = procedure.Inland; return f }(), procedure.Regular, procedure.No, []string{"42(1)(j)"}},
		{"Art. 48: capacity notified drops (j)", func() procedure.Facts { f := sar("BD"); f.CapacityNotified = true; return f }(), procedure.Regular, procedure.No, []string{"42(1)(j)"}},
		{"Art. 50: annual maximum drops (c) and (j), not (f)", func() procedure.Facts {
			f := sar("BD")
			f.AnnualMaxAuthorised, f.Misled, f.SecurityDanger = true, true, true
			return f
		}(), procedure.Border, procedure.Yes, []string{"42(1)(c)", "42(1)(f)", "42(1)(j)"}},
		{"Art. 50: annual maximum, deception only", func() procedure.Facts { f := sar("ER"); f.AnnualMaxAuthorised, f.Misled = true, true; return f }(), procedure.Regular, procedure.No, []string{"42(1)(c)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := procedure.Decide(tc.f, rates, procedure.DefaultParams())
			if d.Track != tc.track || d.Mandatory != tc.mandatory || !slices.Equal(d.Grounds, tc.grounds) {
				t.Fatalf("got %s, mandatory %s, grounds %v; want %s, %s, %v\n%+v", d.Track, d.Mandatory, d.Grounds, tc.track, tc.mandatory, tc.grounds, d.Reasons)
			}
			for _, r := range d.Reasons {
				if bs, err := solidarity.ParseLegalBases(r.Article); err != nil || bs[0].Act != solidarity.APR {
					t.Fatalf("a reason without its article in the convention (legalbasis.go): %+v: %v", r, err)
				}
			}
		})
	}
}

// The threshold is a parameter: at 10 %, Pakistan's 12 % no longer counts.
func TestThresholdIsAParameter(t *testing.T) {
	p := procedure.Params{RecognitionThreshold: big.NewRat(10, 100)}
	if d := procedure.Decide(sar("PK"), procedure.ShippedRates(), p); d.Mandatory != procedure.No {
		t.Fatalf("at 10 %%: %+v", d)
	}
	// Boundary: a rate exactly at the threshold counts ("20 % or lower").
	rates := procedure.Rates{{Nationality: "X", ISO2: "XX", Year: 2025, Percent: big.NewRat(20, 1), Bound: "exact"}}
	if d := procedure.Decide(sar("XX"), rates, procedure.DefaultParams()); d.Mandatory != procedure.Yes {
		t.Fatalf("exactly 20 %%: %+v", d)
	}
	rates[0].Percent = big.NewRat(2001, 100)
	if d := procedure.Decide(sar("XX"), rates, procedure.DefaultParams()); d.Mandatory != procedure.No {
		t.Fatalf("20.01 %%: %+v", d)
	}
}

func TestLatestRateWins(t *testing.T) {
	r, ok := procedure.ShippedRates().Latest("bd")
	if !ok || r.Year != 2025 || r.Bound != "exact" {
		t.Fatalf("%+v", r)
	}
}

func TestParseRatesErrors(t *testing.T) {
	head := "nationality,iso2,year,rate_percent,bound,certainty,source\n"
	for name, src := range map[string]string{
		"header": "a,b\n",
		"year":   head + "X,XX,19,5,exact,V,s\n",
		"rate":   head + "X,XX,2025,150,exact,V,s\n",
		"bound":  head + "X,XX,2025,5,about,V,s\n",
		"iso":    head + "X,XXX,2025,5,exact,V,s\n",
	} {
		if _, err := procedure.ParseRates("r.csv", strings.NewReader(src)); err == nil || !strings.Contains(err.Error(), "r.csv") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Whatever the facts, the border procedure is never chosen when it is not available or
// an Art. 53(2) exclusion holds, and a minor is never in it without the security ground.
func TestInvariants(t *testing.T) {
	rates := procedure.ShippedRates()
	rapid.Check(t, func(t *rapid.T) {
		f := procedure.Facts{
			ScreeningDone: rapid.Bool().Draw(t, "s"), AuthorisedEntry: rapid.Bool().Draw(t, "a"),
			MeetsEntryConditions: rapid.Bool().Draw(t, "m"),
			Route:                rapid.SampledFrom([]procedure.Route{procedure.AtBorder, procedure.Apprehension, procedure.SAR, procedure.Relocated, procedure.Inland, ""}).Draw(t, "r"),
			UnaccompaniedMinor:   rapid.Bool().Draw(t, "u"),
			Nationality:          rapid.SampledFrom([]string{"", "BD", "PK", "ER", "NG", "TN", "SY"}).Draw(t, "n"),
			Misled:               rapid.Bool().Draw(t, "c"), SecurityDanger: rapid.Bool().Draw(t, "f"),
			MedicalReasons: rapid.Bool().Draw(t, "d"), CapacityNotified: rapid.Bool().Draw(t, "cap"),
			AnnualMaxAuthorised: rapid.Bool().Draw(t, "max"),
		}
		d := procedure.Decide(f, rates, procedure.DefaultParams())
		if d.Track == procedure.Border && (!d.Available || f.MedicalReasons) {
			t.Fatalf("border procedure without its conditions: %+v", d)
		}
		if d.Track == procedure.Border && f.UnaccompaniedMinor && !f.SecurityDanger {
			t.Fatalf("a minor in the border procedure without the security ground")
		}
		if d.Track == procedure.Border && f.SecurityDanger == false && f.AnnualMaxAuthorised {
			t.Fatalf("border procedure on (c)/(j) after Art. 50 authorisation")
		}
	})
}

func FuzzParseRates(f *testing.F) {
	f.Add("nationality,iso2,year,rate_percent,bound,certainty,source\nX,XX,2025,5,exact,V,s\n")
	f.Add("nationality,iso2,year,rate_percent,bound,certainty,source\n\"X\",xx,2025,1/3,below,U,\"a,b\"\n")
	f.Fuzz(func(t *testing.T, src string) {
		rs, err := procedure.ParseRates("f.csv", strings.NewReader(src))
		if err != nil {
			return
		}
		for _, r := range rs {
			if r.Percent.Sign() < 0 || r.Percent.Cmp(big.NewRat(100, 1)) > 0 || len(r.ISO2) != 2 {
				t.Fatalf("accepted %+v", r)
			}
		}
	})
}
