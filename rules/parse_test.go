package rules_test

import (
	"os"
	"strings"
	"testing"

	"solidarity"
	"solidarity/rules"
)

func TestParseApplicant(t *testing.T) {
	f, err := os.Open("testdata/sar-italy.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := rules.ParseApplicant("sar-italy.json", f)
	if err != nil {
		t.Fatal(err)
	}
	r := rules.Determine(a, rules.DefaultParams())
	if r.Responsible != "IT" || !strings.Contains(r.Article, "33") {
		t.Fatalf("got %s by %s (%s)", r.Responsible, r.Criterion, r.Article)
	}
}

func TestParseApplicantErrors(t *testing.T) {
	for name, tc := range map[string]struct{ src, field string }{
		"unknown field": {`{"application":{"state":"IT","date":"2026-08-23T00:00:00Z"},"colour":1}`, "colour"},
		"wrong type":    {`{"application":{"state":"IT","date":5}}`, ""},
		"syntax":        {"{\n\"application\": }", ""},
		"two values":    {`{"application":{"state":"IT","date":"2026-08-23T00:00:00Z"}} {}`, ""},
		"invalid":       {`{"application":{"state":"XX","date":"2026-08-23T00:00:00Z"}}`, ""},
	} {
		_, err := rules.ParseApplicant("a.json", strings.NewReader(tc.src))
		e, ok := err.(*solidarity.Error)
		if !ok || e.Code != solidarity.EINVALID || e.File != "a.json" || (tc.field != "" && e.Field != tc.field) {
			t.Errorf("%s: %#v", name, err)
		}
	}
}

func FuzzParseApplicant(f *testing.F) {
	src, _ := os.ReadFile("testdata/sar-italy.json")
	f.Add(string(src))
	f.Add(`{"application":{"state":"DE","date":"2026-01-01T00:00:00Z"},"family":[{"relation":"spouse","state":"FR"}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		a, err := rules.ParseApplicant("f.json", strings.NewReader(s))
		if err != nil {
			if solidarity.ErrorCode(err) != solidarity.EINVALID {
				t.Fatalf("error without the invalid code: %v", err)
			}
			return
		}
		r := rules.Determine(a, rules.DefaultParams())
		if r.Criterion == rules.InvalidInput {
			t.Fatalf("a validated applicant was judged invalid: %s", r.Error)
		}
	})
}
