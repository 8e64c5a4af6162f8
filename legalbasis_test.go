package solidarity_test

import (
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"solidarity"
)

func TestParseLegalBases(t *testing.T) {
	good := []string{
		"Art. 57(1) AMMR",
		"Art. 67 AMMR; Art. 68 AMMR",
		"Art. 43 APR",
		"Art. 67(7) APR",
		"Art. 68(1)–(3) AMMR",
		"Art. 36(1)(b)–(c) AMMR; Art. 41(1) AMMR",
		"Art. 39(1), 4th subpara. AMMR",
		"Art. 3(2), 3rd subpara. Dublin III",
		"Art. 8(3), 2nd sentence SR",
		"Art. 5(1)(e) GDPR",
		"Art. 6(1) Return Directive",
		"Art. 12(2)(a) CR",
		"Art. 21(1), 11th subpara. AMMR",
		"Art. 12(2) AMMR; recital 15 AMMR",
		"Art. 66 AMMR; Annex I AMMR",
		"Annex IV AMMR",
		"Annex XXXIX APR",
		"recital 1 Dublin III",
	}
	for _, s := range good {
		bs, err := solidarity.ParseLegalBases(s)
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		if bs.String() != s {
			t.Errorf("%q writes back as %q", s, bs.String())
		}
	}
	// The styles found in the ledger before the convention, and other faults.
	bad := map[string]string{
		"Art. 57(1) Regulation (EU) 2024/1351": "short name of a known act",
		"Arts. 67–68":                          "range of articles",
		"Arts. 67–68 AMMR":                     "range of articles",
		"Art. 11; Arts. 58–59":                 "short name",
		"Art. 56(2), Art. 57(1)":               "short name",
		"Art. 63(1), Art. 69 AMMR":             "subparagraph or sentence",
		"Art. 35(2), (5) APR":                  "subparagraph or sentence",
		"APR Art. 43(1)":                       "start with",
		"Art. 68 AMMR ":                        "short name",
		"Art. 057 AMMR":                        "article number",
		"Art. 5(0) AMMR":                       "left over",
		"Art. 68(3)–(1) AMMR":                  "range of paragraphs",
		"Art. 36(1)(c)–(b) AMMR":               "range of points",
		"Art. 36(b) AMMR":                      "point belongs",
		"Art. 39(1), 4nd subpara. AMMR":        "subparagraph or sentence",
		"Art. 39(1),  4th subpara. AMMR":       "subparagraph or sentence",
		"Art. 4 Charter":                       "short name",
		"Art. 57(1) AMMR;Art. 58 AMMR":         "left over",
		"":                                     "start with",
		"Art. 12(2), recital 15 AMMR":          "subparagraph or sentence",
		"Art. 12(2) AMMR, recital 15":          "short name",
		"Recital 15 AMMR":                      "start with",
		"recital 15":                           "short name",
		"recital 015 AMMR":                     "recital or annex number",
		"recital 15(1) AMMR":                   "left over",
		"Annex 1 AMMR":                         "recital or annex number",
		"Annex IIII AMMR":                      "as the convention writes it",
		"Annex XL AMMR":                        "left over",
		"Annex I, Regulation (EU) 2024/1351":   "short name",
	}
	for s, why := range bad {
		_, err := solidarity.ParseLegalBases(s)
		e, ok := errors.AsType[*solidarity.Error](err)
		if !ok || e.Code != solidarity.EINVALID || !strings.Contains(e.Message, why) {
			t.Errorf("%q: %v, want EINVALID saying %q", s, err, why)
		}
	}
	if got := solidarity.AMMR.Arts(67, 68).String(); got != "Art. 67 AMMR; Art. 68 AMMR" {
		t.Errorf("Arts: %q", got)
	}
	if got := solidarity.AMMR.Art(57, 1).String(); got != "Art. 57(1) AMMR" {
		t.Errorf("Art: %q", got)
	}
	if got := (solidarity.LegalBases{solidarity.AMMR.Art(12, 2), solidarity.AMMR.Recital(15), solidarity.AMMR.Annex(1)}).String(); got != "Art. 12(2) AMMR; recital 15 AMMR; Annex I AMMR" {
		t.Errorf("Recital, Annex: %q", got)
	}
	for _, b := range []solidarity.LegalBasis{{Act: solidarity.AMMR, Recital: 15, Paragraph: 1}, {Act: solidarity.AMMR, Article: 12, Recital: 15},
		{Act: solidarity.AMMR, Recital: 1, Annex: 1}, {Act: solidarity.AMMR, Annex: 40}, {Act: solidarity.AMMR, Recital: -1}} {
		if err := b.Validate(); err == nil {
			t.Errorf("%+v: valid", b)
		}
	}
	if got := (solidarity.LegalBases{solidarity.AMMR.Art(46, 1)}).Join(solidarity.AMMR.Arts(46, 47)...).String(); got != "Art. 46(1) AMMR; Art. 46 AMMR; Art. 47 AMMR" {
		t.Errorf("Join: %q", got)
	}
	for _, a := range solidarity.Acts() {
		if a.Title() == "" || strings.Contains(string(a), ";") {
			t.Errorf("act %q", a)
		}
	}
}

func genLegalBasis(t *rapid.T) solidarity.LegalBasis {
	switch rapid.IntRange(0, 5).Draw(t, "kind") {
	case 0:
		return solidarity.LegalBasis{Act: rapid.SampledFrom(solidarity.Acts()).Draw(t, "act"), Recital: rapid.IntRange(1, 200).Draw(t, "recital")}
	case 1:
		return solidarity.LegalBasis{Act: rapid.SampledFrom(solidarity.Acts()).Draw(t, "act"), Annex: rapid.IntRange(1, 39).Draw(t, "annex")}
	}
	b := solidarity.LegalBasis{
		Act:     rapid.SampledFrom(solidarity.Acts()).Draw(t, "act"),
		Article: rapid.IntRange(1, 999).Draw(t, "article"),
	}
	if rapid.Bool().Draw(t, "para?") {
		b.Paragraph = rapid.IntRange(1, 30).Draw(t, "para")
		switch rapid.IntRange(0, 2).Draw(t, "more") {
		case 0:
			b.ParagraphTo = b.Paragraph + rapid.IntRange(1, 5).Draw(t, "to")
		case 1:
			b.Point = string(rune('a' + rapid.IntRange(0, 20).Draw(t, "point")))
			if rapid.Bool().Draw(t, "pointTo?") {
				b.PointTo = string(rune(b.Point[0] + byte(rapid.IntRange(1, 5).Draw(t, "pointTo"))))
			}
		}
		switch rapid.IntRange(0, 2).Draw(t, "sub") {
		case 0:
			b.Subparagraph = rapid.IntRange(1, 25).Draw(t, "subpara")
		case 1:
			b.Sentence = rapid.IntRange(1, 25).Draw(t, "sentence")
		}
	}
	return b
}

// TestPropertyLegalBasisRoundTrip: every valid legal basis writes in the convention
// and reads back as itself.
func TestPropertyLegalBasisRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		bs := solidarity.LegalBases(rapid.SliceOfN(rapid.Custom(genLegalBasis), 1, 4).Draw(t, "bases"))
		if err := bs.Validate(); err != nil {
			t.Fatalf("%v: %v", bs, err)
		}
		got, err := solidarity.ParseLegalBases(bs.String())
		if err != nil {
			t.Fatalf("%q: %v", bs.String(), err)
		}
		if got.String() != bs.String() || len(got) != len(bs) {
			t.Fatalf("%q read back as %q", bs.String(), got.String())
		}
		for i := range bs {
			if got[i] != bs[i] {
				t.Fatalf("%+v read back as %+v", bs[i], got[i])
			}
		}
	})
}

// FuzzParseLegalBases: no input makes the parser panic, and whatever it accepts is
// written back unchanged.
func FuzzParseLegalBases(f *testing.F) {
	for _, s := range []string{"Art. 57(1) AMMR", "Art. 36(1)(b)–(c) AMMR; Art. 41(1) AMMR", "Art. 39(1), 4th subpara. AMMR",
		"Arts. 67–68", "Art. 8(3), 2nd sentence SR", "Art. 9999(9999)(zzz) Dublin III", "Art. 1(1)–", "Art. (1) AMMR",
		"recital 15 AMMR", "Art. 66 AMMR; Annex I AMMR", "Annex XIV APR", "Annex IIX SR"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		bs, err := solidarity.ParseLegalBases(s)
		if err != nil {
			if _, ok := errors.AsType[*solidarity.Error](err); !ok {
				t.Fatalf("%q: error %T", s, err)
			}
			return
		}
		if bs.String() != s {
			t.Fatalf("%q accepted, written back as %q", s, bs.String())
		}
		if err := bs.Validate(); err != nil {
			t.Fatalf("%q accepted but invalid: %v", s, err)
		}
	})
}
